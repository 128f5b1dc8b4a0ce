package control

import (
	"testing"
	"time"
)

// TestClients: Clients counts the connected clients, as the metrics'
// vmaf_control_clients shows them, and forgets one that leaves.
func TestClients(t *testing.T) {
	s := startTest(t, newFake(), Options{})
	if n := s.Clients(); n != 0 {
		t.Fatalf("Clients() = %d before any client, want 0", n)
	}
	a, _ := connectTest(t, s, protocols[1])
	connectTest(t, s, protocols[1])
	if n := s.Clients(); n != 2 {
		t.Fatalf("Clients() = %d with two clients, want 2", n)
	}
	a.Close()
	for deadline := time.Now().Add(time.Minute); s.Clients() != 1; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("Clients() = %d a minute after one of two left, want 1", s.Clients())
		}
	}
}
