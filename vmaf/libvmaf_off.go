//go:build !libvmaf

package vmaf

func newLibvmafScorer(Config) (scorer, error) { return nil, ErrNoLibvmaf }
