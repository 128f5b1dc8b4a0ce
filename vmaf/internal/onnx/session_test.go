package onnx

import (
	"os"
	"path/filepath"
	"testing"
)

// TestSessionSharedUntilReleased: users of one model share its session;
// it stays usable while any holds it, is destroyed (and forgotten) when
// the last releases it, and the next Open makes a new one.
func TestSessionSharedUntilReleased(t *testing.T) {
	dir := os.Getenv("VMAF_MODELS")
	if dir == "" {
		t.Fatal("VMAF_MODELS is not set: the test needs the learned models")
	}
	path := filepath.Join(dir, "tiny", "vmaf_tiny_v2.onnx")
	open := func() *Session {
		t.Helper()
		s, err := Open(path, "test-key", Options{})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	a, b := open(), open()
	held := func() bool {
		sessions.Lock()
		defer sessions.Unlock()
		return sessions.m[a.id] == a
	}
	if a != b {
		t.Fatal("two Opens of one model made two sessions")
	}
	a.Release()
	if !held() {
		t.Fatal("the session was destroyed while a user still held it")
	}
	buf, err := b.NewBuffers([][]int64{{1, 6}}, [][]int64{{1}})
	if err != nil {
		t.Fatal(err)
	}
	defer buf.Close()
	if err := b.Run(buf); err != nil {
		t.Fatalf("run by the user left: %v", err)
	}
	b.Release()
	if held() {
		t.Fatal("the session outlived its last user")
	}
	b.Release() // a release past the last is ignored
	c := open()
	defer c.Release()
	if c == a {
		t.Fatal("Open after the last release returned the destroyed session")
	}
}
