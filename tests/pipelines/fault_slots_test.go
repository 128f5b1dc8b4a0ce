package pipelines

import (
	"bytes"
	"io"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/vmafsink/vmafsink/control"
)

// TestFaultControlReadOnlyPeersHoldSlots: read-only peers holding
// initialized, idle connections took every client slot, and the owner's
// `vmafctl status` was refused every time. The owner now gets in (the
// reserved slots) while they hold the rest, and scoring goes on.
func TestFaultControlReadOnlyPeersHoldSlots(t *testing.T) {
	socat := needPeerClient(t)
	const nobody, readOnly = 65534, 4245
	run := mcpStart(t, mcpConfig{opts: control.Options{ReadOnlyGID: readOnly, MaxSessions: 8, ReclaimIdle: time.Minute}})
	ref, dist := mcpFrames(t, "flower_576x324_ref"), mcpFrames(t, "flower_576x324_x264_crf22")
	done := run.feed(ref, dist, 20*time.Millisecond, 100)
	defer func() {
		run.stopFeed()
		<-done
	}()
	openToPeers(t, filepath.Dir(run.sock))

	// Eight read-only peers, each initializing and then silent.
	var peers []*exec.Cmd
	var ins []io.WriteCloser
	for range 8 {
		in, out, cmd := socatAs(t, socat, run.sock, &syscall.Credential{Uid: nobody, Gid: readOnly})
		go io.Copy(io.Discard, out)
		in.Write([]byte(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"idle","version":"1"}}}` + "\n"))
		peers, ins = append(peers, cmd), append(ins, in)
	}
	defer func() {
		for i, cmd := range peers {
			ins[i].Close()
			cmd.Process.Kill()
			cmd.Wait()
		}
	}()
	srv := run.plane.Server()
	waitFor(t, time.Minute, "the read-only peers to take their slots", func() bool { return srv.Clients() == 4 })

	vmafctl := vmafctlBin(t)
	scored := len(run.records())
	for i := range 3 {
		var stderr bytes.Buffer
		cmd := exec.Command(vmafctl, "-s", run.sock, "-timeout", "1m", "status")
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil {
			t.Errorf("the owner's vmafctl status %d while read-only peers hold the other slots: %v: %s", i, err, stderr.String())
		}
	}
	if srv.Clients() > 8 {
		t.Errorf("%d clients, limit 8", srv.Clients())
	}
	waitFor(t, time.Minute, "scoring to go on", func() bool { return len(run.records()) > scored })
}

// waitFor polls cond until it holds, failing the test after d.
func waitFor(t *testing.T, d time.Duration, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(d); !cond(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("waited %v for %s", d, what)
		}
	}
}
