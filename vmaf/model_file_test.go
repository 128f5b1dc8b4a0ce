package vmaf

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/vmafsink/vmafsink/vmaf/internal/feature/vif"
)

// TestFaultModelSpecNonFinite: NaN fails every range check by comparing
// false, so it once reached the extractors (VMAF pinned at 100).
func TestFaultModelSpecNonFinite(t *testing.T) {
	for _, v := range []string{"NaN", "nan", "-NaN", "Inf", "-Inf", "+Infinity", "infinity", "1e39"} {
		for _, opt := range []string{"vif.vif_enhn_gain_limit", "adm.adm_enhn_gain_limit", "motion.motion_blend_offset"} {
			spec := "version=vmaf_v0.6.1:" + opt + "=" + v
			t.Run(spec, func(t *testing.T) {
				m, err := ParseModelSpec(spec)
				if err == nil {
					t.Fatalf("accepted, features %v", m.FeatureNames())
				}
				if !strings.Contains(err.Error(), "not a finite number") {
					t.Errorf("error %q does not say the value is not finite", err)
				}
			})
		}
	}
	// The range check itself refuses NaN too, whatever the spec parser lets by.
	if _, err := settingsOf(vif.Kind, []featureOpt{{"vif_enhn_gain_limit", "NaN"}}); err == nil {
		t.Errorf("settingsOf accepted NaN")
	}
	// Finite values in range still work.
	if _, err := ParseModelSpec("version=vmaf_v0.6.1:vif.vif_enhn_gain_limit=1.5"); err != nil {
		t.Errorf("finite value refused: %v", err)
	}
}

// TestFaultModelFileNotRegular: a model path naming a FIFO used to block
// the caller in open(2) for ever; a file's bytes used to be quoted in the
// syntax error.
func TestFaultModelFileNotRegular(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.json")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	secret := filepath.Join(dir, "secret.json")
	if err := os.WriteFile(secret, []byte("S3CR3T:$y$j9T$hidden:19000\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, spec, want, never string
	}{
		{"fifo", "path=" + fifo, "not a regular file", ""},
		{"directory", "path=" + dir, "not a regular file", ""},
		{"device", "path=/dev/zero", "not a regular file", ""},
		{"not JSON", "path=" + secret, "syntax error at byte", "'S'"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			done := make(chan error, 1)
			go func() { _, err := ParseModelSpec(tc.spec); done <- err }()
			var err error
			select {
			case err = <-done:
			case <-ctx.Done():
				t.Fatal("ParseModelSpec blocked")
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
			if tc.never != "" && strings.Contains(err.Error(), tc.never) {
				t.Errorf("error %q quotes the file's content", err)
			}
		})
	}
}
