package framesize

import (
	"strings"
	"testing"
)

func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		w, h int
		says string
	}{
		{7680, 4320, ""},
		{16384, 4096, ""},
		{8192, 8192, ""},
		{32768, 32768, "a side is at most 16384"},
		{65536, 16, "a side is at most 16384"},
		{16384, 16384, "at most 67108864"},
		{0, 10, "not positive"},
	} {
		err := Check(tc.w, tc.h)
		if tc.says == "" && err != nil || tc.says != "" && (err == nil || !strings.Contains(err.Error(), tc.says)) {
			t.Errorf("%dx%d: %v, want %q", tc.w, tc.h, err, tc.says)
		}
	}
}
