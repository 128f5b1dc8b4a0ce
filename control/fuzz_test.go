package control

import (
	"bufio"
	"bytes"
	"encoding/json"
	"net"
	"strings"
	"testing"
	"time"
)

// FuzzControlSurface sends arbitrary lines to a session and checks that
// the session still answers afterwards: no input may end a client's
// session, stop the server or panic it.
//
//	go test -run '^$' -fuzz FuzzControlSurface -fuzztime 60s ./control
func FuzzControlSurface(f *testing.F) {
	seeds := []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"vmaf_score","arguments":{"last":3}}}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"vmaf.request_model_swap","arguments":{"model":"vmaf_v0.6.1neg","wait":true,"timeout_ms":1}}}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"vmaf_pause","arguments":{"wait":"x"}}}`,
		`{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"vmaf://status"}}`,
		`{"jsonrpc":"2.0","id":1,"method":"resources/subscribe","params":{"uri":"vmaf://scores/live"}}`,
		`{"jsonrpc":"2.0","id":1,"method":"prompts/get","params":{"name":"diagnose_quality_drop","arguments":{"from":"2","to":"1e9"}}}`,
		`{"jsonrpc":"2.0","id":1,"method":"logging/setLevel","params":{"level":"debug"}}`,
		`[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":1,"method":"ping"}]`,
		`{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`,
		`{"jsonrpc":"2.0","result":{},"id":99}`,
		"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}",
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26"}}`,
		"\x00\xff{",
	}
	for _, s := range seeds {
		f.Add(s, false)
		f.Add(s, true)
	}
	target := newFake()
	target.capacity = 1 << 20
	s := newServer("fuzz.sock", target, Options{MaxLineBytes: 1 << 16, WriteTimeout: 2 * time.Second})
	defer s.cancel()

	// old: open the session with 2025-03-26, the last version with batches.
	f.Fuzz(func(t *testing.T, input string, old bool) {
		srv, cli := net.Pipe()
		done := make(chan struct{})
		go func() {
			s.runSession(newWireConn(srv, s.opts.MaxLineBytes, s.opts.WriteTimeout), peer{})
			close(done)
		}()
		defer func() {
			cli.Close()
			<-done
		}()
		replies := make(chan map[string]any, 64)
		go func() {
			r := bufio.NewReaderSize(cli, 1<<20)
			for {
				line, err := r.ReadBytes('\n')
				if err != nil {
					close(replies)
					return
				}
				var m map[string]any
				if err := json.Unmarshal(line, &m); err != nil {
					// The server must only ever write JSON; a batch reply is an array.
					var arr []any
					if json.Unmarshal(line, &arr) != nil {
						t.Errorf("server wrote invalid JSON: %q", line)
					}
					continue
				}
				replies <- m
			}
		}()
		write := func(s string) bool {
			cli.SetWriteDeadline(time.Now().Add(time.Minute))
			_, err := cli.Write([]byte(s))
			return err == nil
		}
		version := "2025-11-25"
		if old {
			version = "2025-03-26"
		}
		if !write(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"` + version + `","capabilities":{},"clientInfo":{"name":"fuzz","version":"1"}}}` + "\n" +
			`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n") {
			t.Fatal("session refused the handshake")
		}
		// The input, then a probe that must be answered.
		in := strings.ReplaceAll(input, "\r", "")
		if !write(in + "\n" + `{"jsonrpc":"2.0","id":"probe-7f3a","method":"ping"}` + "\n") {
			t.Fatalf("session stopped reading after %q", input)
		}
		timeout := time.After(time.Minute)
		for {
			select {
			case m, ok := <-replies:
				if !ok {
					t.Fatalf("session ended after %q", input)
				}
				if m["id"] == "probe-7f3a" {
					if m["error"] != nil && !bytes.Contains([]byte(input), []byte("probe-7f3a")) {
						t.Fatalf("probe failed after %q: %v", input, m["error"])
					}
					return
				}
			case <-timeout:
				t.Fatalf("no answer to the probe after %q", input)
			}
		}
	})
}
