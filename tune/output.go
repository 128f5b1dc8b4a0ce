package tune

import (
	"fmt"

	"github.com/asticode/go-astiav"
)

// NeedsGlobalHeader reports whether the container path's name picks
// (MP4, Matroska, ...) wants the encoder's headers out of band.
func NeedsGlobalHeader(path string) (bool, error) {
	fc, err := astiav.AllocOutputFormatContext(nil, "", path)
	if err != nil || fc == nil {
		return false, fmt.Errorf("%s: no container for this name (use .mp4, .mkv, .webm, .ivf, .264, .hevc ...): %v", path, err)
	}
	defer fc.Free()
	return fc.OutputFormat().Flags().Has(astiav.IOFormatFlagGlobalheader), nil
}

// WriteOutput muxes a probe's kept packets into path, the container
// chosen by its name.
func WriteOutput(path string, p *Probe) error { return writeParts(path, []outputPart{{p, 0}}) }

// outputPart is a probe's packets placed offset frames into the output.
type outputPart struct {
	p      *Probe
	offset int64
}

// writeParts muxes the parts' packets one after another; the stream's
// parameters are the first part's.
func writeParts(path string, parts []outputPart) (err error) {
	if len(parts) == 0 {
		return fmt.Errorf("%s: nothing to write", path)
	}
	p := parts[0].p
	for _, part := range parts {
		if part.p.params == nil || len(part.p.packets) == 0 {
			return fmt.Errorf("%s: a probe kept no packets", path)
		}
	}
	fc, err := astiav.AllocOutputFormatContext(nil, "", path)
	if err != nil || fc == nil {
		return fmt.Errorf("%s: no container for this name: %v", path, err)
	}
	defer fc.Free()
	st := fc.NewStream(nil)
	if st == nil {
		return fmt.Errorf("%s: cannot add a stream", path)
	}
	if err := p.params.Copy(st.CodecParameters()); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	st.CodecParameters().SetCodecTag(0)
	st.SetTimeBase(p.tb)
	if !fc.OutputFormat().Flags().Has(astiav.IOFormatFlagNofile) {
		ioc, err := astiav.OpenIOContext(path, astiav.NewIOContextFlags(astiav.IOContextFlagWrite))
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		defer func() {
			if cerr := ioc.Close(); err == nil && cerr != nil {
				err = fmt.Errorf("%s: %w", path, cerr)
			}
		}()
		fc.SetPb(ioc)
	}
	if err := fc.WriteHeader(nil); err != nil {
		return fmt.Errorf("%s: writing the header: %w", path, err)
	}
	pkt := astiav.AllocPacket()
	defer pkt.Free()
	for _, part := range parts {
		for _, kept := range part.p.packets {
			if err := pkt.Ref(kept); err != nil {
				return err
			}
			pkt.SetPts(pkt.Pts() + part.offset)
			pkt.SetDts(pkt.Dts() + part.offset)
			pkt.SetStreamIndex(st.Index())
			pkt.RescaleTs(p.tb, st.TimeBase())
			if err := fc.WriteInterleavedFrame(pkt); err != nil {
				return fmt.Errorf("%s: writing: %w", path, err)
			}
		}
	}
	if err := fc.WriteTrailer(); err != nil {
		return fmt.Errorf("%s: writing the trailer: %w", path, err)
	}
	return nil
}
