package vmaf

import "fmt"

// CheckFormat reports whether a Context made with cfg could score a
// stream of format's geometry and sample format (its planes are not
// read): the error is the one the stream's first Submit would return,
// such as a picture too small for a feature's filters or scales. It
// builds the extractors once and frees them, so a host can refuse such a
// stream when it learns its format rather than at its first frame.
func CheckFormat(cfg Config, format *Picture) error {
	f := *format
	f.Planes = [3][]byte{}
	if err := f.checkFormat(); err != nil {
		return err
	}
	if cfg.Engine == "libvmaf" {
		return nil
	}
	if _, err := newNativeScorer(cfg); err != nil {
		if cfg.Engine == "native" {
			return err
		}
		// auto: libvmaf scores what the native engine cannot.
		return nil
	}
	p, err := newPlan(cfg.Models, cfg.Features, formatOf(&f))
	if err != nil {
		return err
	}
	for _, u := range p.seqs {
		x, err := u.settings.Kind().NewSequential(formatOf(&f), u.settings)
		if err != nil {
			return fmt.Errorf("vmaf: %w", err)
		}
		x.Close()
	}
	set, err := newUnitSet(&f, p)
	if err != nil {
		return err
	}
	set.close()
	return nil
}
