package control

import (
	"testing"
	"time"
)

// BenchmarkCheck is what vetting one inbound message costs, for the
// messages a polling client sends most.
func BenchmarkCheck(b *testing.B) {
	for _, bc := range []struct{ name, line string }{
		{"status", `{"jsonrpc":"2.0","id":1234,"method":"tools/call","params":{"name":"vmaf_status","arguments":{}}}`},
		{"swap", `{"jsonrpc":"2.0","id":"call-77","method":"tools/call","params":{"name":"vmaf_request_model_swap","arguments":{"model":"version=vmaf_v0.6.1neg:name=vmaf_neg","wait":true,"timeout_ms":20000}}}`},
	} {
		b.Run(bc.name, func(b *testing.B) {
			w := newWireConn(nil, 1<<20, time.Second)
			w.initSeen = true
			msg := []byte(bc.line)
			b.ReportAllocs()
			for b.Loop() {
				if _, _, code, reason := w.check(msg); code != 0 {
					b.Fatal(reason)
				}
			}
		})
	}
}
