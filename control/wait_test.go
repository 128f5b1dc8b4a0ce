package control

import (
	"context"
	"errors"
	"testing"
)

// TestFaultCancelledWaitIsNotATimeout: a wait the client cancels ends
// with the cancellation, not with a made-up "still enqueued after" the
// whole timeout.
func TestFaultCancelledWaitIsNotATimeout(t *testing.T) {
	f := newFake()
	s := startTest(t, f, Options{})
	cmd, err := f.Pause(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, _, err = s.wait(ctx, cmd, 20000)
	var ce *Error
	if !errors.Is(err, context.Canceled) || errors.As(err, &ce) {
		t.Errorf("cancelled wait: %v, want context.Canceled and no protocol error", err)
	}
}
