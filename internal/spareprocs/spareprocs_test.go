package spareprocs

import (
	"os"
	"runtime"
	"testing"
)

func TestReserve(t *testing.T) {
	if _, set := os.LookupEnv("GOMAXPROCS"); set {
		t.Skip("GOMAXPROCS is set in the environment")
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	Reserve(1)
	if got, want := runtime.GOMAXPROCS(0), runtime.NumCPU()+1; got != want {
		t.Fatalf("after Reserve(1): GOMAXPROCS %d, want %d", got, want)
	}
	Reserve(2)
	Reserve(1) // never lowers
	if got, want := runtime.GOMAXPROCS(0), runtime.NumCPU()+2; got != want {
		t.Fatalf("after Reserve(2), Reserve(1): GOMAXPROCS %d, want %d", got, want)
	}
	t.Setenv("GOMAXPROCS", "1")
	runtime.GOMAXPROCS(1)
	Reserve(3)
	if got := runtime.GOMAXPROCS(0); got != 1 {
		t.Fatalf("with GOMAXPROCS set in the environment: %d, want it left at 1", got)
	}
}
