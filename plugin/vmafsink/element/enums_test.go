package element

import "testing"

// TestEnumsMatchGo: every enum property's C values are the Go constants
// they stand for.
func TestEnumsMatchGo(t *testing.T) {
	for _, m := range enumMismatches() {
		t.Error(m)
	}
}
