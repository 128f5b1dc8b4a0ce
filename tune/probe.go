package tune

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/asticode/go-astiav"

	"github.com/vmafsink/vmafsink/internal/ffsource"
	"github.com/vmafsink/vmafsink/vmaf"
)

// Segment is a run of the reference's frames, [Start, End), encoded and
// scored on its own (a sample).
type Segment struct{ Start, End int }

// ProbeConfig is what every probe of a run shares.
type ProbeConfig struct {
	Encoder Encoder
	Model   *vmaf.Model
	Threads int // scoring threads (0: 1)
	// GlobalHeader opens the encoder as a container with global headers
	// (MP4, Matroska) needs, so the probe's packets can be written there.
	GlobalHeader bool
	// KeepPackets holds the encoded packets in memory, for WriteOutput.
	KeepPackets bool
	// Scale, when set, encodes at another size and scores the decoded
	// frames scaled back to the source's.
	Scale *Scaling
	// OnFrame, if set, is told of each frame scored: its index in the
	// probe, the probe's frame count, and its score with all the
	// engine's metrics. r is valid during the call only.
	OnFrame func(done, total int, r *vmaf.Result)

	// live, when set, scores the probe through its Runner if no other
	// probe holds it; liveProbe says which probe this is.
	live      *Live
	liveProbe LiveProbe
}

// pairScorer is what a segment's frame pairs are scored by: a
// vmaf.Context of its own, or a stream on the Live Runner.
type pairScorer interface {
	Submit(ref, dist *vmaf.Picture, release func()) error
	Flush() error
	Close()
}

// Probe is one measured encode.
type Probe struct {
	CRF    float64
	Scores []float64 // the model's per-frame scores, in frame order
	Bytes  int64     // encoded bytes (the video bitstream, no container)
	// PeakKbps is the highest bitrate over one second of frames (by
	// presentation time), or the average for a shorter encode.
	PeakKbps   float64
	window     map[int64]int64 // bytes per second of presentation time
	Seconds    float64         // the encoded frames' duration
	EncodeTime time.Duration
	// Codec is the encode's CODECS string for manifests ("" when it
	// cannot be derived; CodecErr says why).
	Codec    string
	CodecErr error

	header  []byte // the encoder's global header, or its first packet
	packets []*astiav.Packet
	params  *astiav.CodecParameters
	tb      astiav.Rational
}

// BitrateKbps is the encode's bitrate in kilobits per second.
func (p *Probe) BitrateKbps() float64 { return float64(p.Bytes) * 8 / p.Seconds / 1000 }

// Free releases kept packets.
func (p *Probe) Free() {
	for _, pkt := range p.packets {
		pkt.Free()
	}
	p.packets = nil
	if p.params != nil {
		p.params.Free()
		p.params = nil
	}
}

// Probe encodes segs of the reference at crf and scores each frame as
// it leaves the decoder; no file is written.
func (r *Reference) Probe(ctx context.Context, cfg ProbeConfig, crf float64, segs []Segment) (*Probe, error) {
	p := &Probe{CRF: crf}
	total := 0
	for _, s := range segs {
		total += s.End - s.Start
	}
	start := time.Now()
	live := false
	if cfg.live != nil {
		lp := cfg.liveProbe
		lp.Frames = total
		var release func()
		if release, live = cfg.live.acquire(ctx, lp); live {
			defer release()
		}
	}
	for _, s := range segs {
		if err := r.encodeSegment(ctx, cfg, p, s, total, live); err != nil {
			p.Free()
			return nil, err
		}
	}
	p.EncodeTime = time.Since(start)
	p.Seconds = float64(total) / r.Rate.Float64()
	w, h := r.Format.Width, r.Format.Height
	if cfg.Scale != nil {
		w, h = cfg.Scale.Width, cfg.Scale.Height
	}
	p.PeakKbps = p.BitrateKbps()
	if p.Seconds >= 1 {
		p.PeakKbps = 0
		for _, b := range p.window {
			p.PeakKbps = max(p.PeakKbps, float64(b)*8/1000)
		}
	}
	p.window = nil
	p.Codec, p.CodecErr = codecString(cfg.Encoder.Name, p.header, w, h, r.Rate.Float64(), p.BitrateKbps(), r.Format.BitDepth)
	p.header = nil
	return p, nil
}

// segmentRun is one segment's encoder, decoder and scorer.
type segmentRun struct {
	r     *Reference
	cfg   ProbeConfig
	p     *Probe
	seg   Segment
	total int

	enc, dec *astiav.CodecContext
	live     bool // score on cfg.live's Runner
	scorer   pairScorer
	pkt      *astiav.Packet
	in       *astiav.Frame
	encFmt   ffsource.Format // what the encoder takes: the source's format, or scaled
	down, up *scaler
	decoded  int
	scored   int
	failure  error
}

func (r *Reference) encodeSegment(ctx context.Context, cfg ProbeConfig, p *Probe, seg Segment, total int, live bool) error {
	sr := &segmentRun{r: r, cfg: cfg, p: p, seg: seg, total: total, live: live}
	defer sr.close()
	if err := sr.open(); err != nil {
		return err
	}
	for i := seg.Start; i < seg.End; i++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := sr.input(r.frames[i]); err != nil {
			return fmt.Errorf("frame %d: %w", i, err)
		}
		sr.in.SetPts(int64(i - seg.Start))
		err := sr.enc.SendFrame(sr.in)
		sr.in.Unref()
		if err != nil {
			return fmt.Errorf("%s: encoding frame %d: %w", cfg.Encoder.Name, i, err)
		}
		if err := sr.drainEncoder(); err != nil {
			return err
		}
	}
	if err := sr.enc.SendFrame(nil); err != nil {
		return fmt.Errorf("%s: flushing: %w", cfg.Encoder.Name, err)
	}
	if err := sr.drainEncoder(); err != nil {
		return err
	}
	if err := sr.decode(nil); err != nil {
		return err
	}
	if err := sr.scorer.Flush(); err != nil {
		return err
	}
	if sr.failure != nil {
		return sr.failure
	}
	if want := seg.End - seg.Start; sr.decoded != want || sr.scored != want {
		return fmt.Errorf("%s: %d frames in, %d decoded, %d scored", cfg.Encoder.Name, want, sr.decoded, sr.scored)
	}
	return nil
}

func (sr *segmentRun) open() error {
	e := sr.cfg.Encoder
	codec := astiav.FindEncoderByName(e.Name)
	if codec == nil {
		return e.Check()
	}
	pf := sr.r.Format.PixelFormat()
	if pfs := codec.PixelFormats(); len(pfs) > 0 && !slices.Contains(pfs, pf) {
		return fmt.Errorf("%s does not take %s pictures", e.Name, pf.Name())
	}
	sr.enc = astiav.AllocCodecContext(codec)
	if sr.enc == nil {
		return fmt.Errorf("%s: cannot allocate the encoder", e.Name)
	}
	sr.encFmt = sr.r.Format
	if sc := sr.cfg.Scale; sc != nil {
		sr.encFmt.Width, sr.encFmt.Height = sc.Width, sc.Height
		var err error
		if sr.down, err = newScaler(sr.r.Format, sr.encFmt, sc.Down); err != nil {
			return err
		}
		if sr.up, err = newScaler(sr.encFmt, sr.r.Format, sc.Up); err != nil {
			return err
		}
	}
	sr.enc.SetWidth(sr.encFmt.Width)
	sr.enc.SetHeight(sr.encFmt.Height)
	sr.enc.SetPixelFormat(pf)
	sr.enc.SetTimeBase(astiav.NewRational(sr.r.Rate.Den(), sr.r.Rate.Num()))
	sr.enc.SetFramerate(sr.r.Rate)
	sr.enc.SetThreadCount(0) // the encoder's own choice, as ffmpeg's -threads auto
	if traitsOf(e.Name).zeroBitrate {
		sr.enc.SetBitRate(0)
	}
	if sr.cfg.GlobalHeader {
		sr.enc.SetFlags(sr.enc.Flags().Add(astiav.CodecContextFlagGlobalHeader))
	}
	dict := astiav.NewDictionary()
	defer dict.Free()
	for _, o := range e.openOptions(sr.p.CRF) {
		if err := dict.Set(o.Key, o.Value, 0); err != nil {
			return fmt.Errorf("%s option %s: %w", e.Name, o.Key, err)
		}
	}
	if err := sr.enc.Open(codec, dict); err != nil {
		return fmt.Errorf("cannot open %s: %w", e.Name, err)
	}
	if left := dict.Get("", nil, astiav.NewDictionaryFlags(astiav.DictionaryFlagIgnoreSuffix)); left != nil {
		return fmt.Errorf("%s has no option %q", e.Name, left.Key())
	}
	if sr.p.header == nil {
		sr.p.header = append([]byte(nil), sr.enc.ExtraData()...)
	}
	params := astiav.AllocCodecParameters()
	if err := sr.enc.ToCodecParameters(params); err != nil {
		params.Free()
		return fmt.Errorf("%s: parameters: %w", e.Name, err)
	}
	if sr.p.params == nil {
		sr.p.params, sr.p.tb = params, sr.enc.TimeBase()
	} else {
		defer params.Free()
	}
	dcodec := astiav.FindDecoder(codec.ID())
	if dcodec == nil {
		return fmt.Errorf("no decoder for %s's output", e.Name)
	}
	if sr.dec = astiav.AllocCodecContext(dcodec); sr.dec == nil {
		return errors.New("cannot allocate a decoder")
	}
	if err := sr.dec.FromCodecParameters(params); err != nil {
		return fmt.Errorf("decoder parameters: %w", err)
	}
	sr.dec.SetThreadCount(0)
	if err := sr.dec.Open(dcodec, nil); err != nil {
		return fmt.Errorf("cannot open the %s decoder: %w", dcodec.Name(), err)
	}
	if err := sr.openScorer(); err != nil {
		return err
	}
	sr.pkt = astiav.AllocPacket()
	sr.in = astiav.AllocFrame()
	return nil
}

// openScorer scores on the Live Runner when the probe holds it (and the
// Runner still runs), otherwise on a vmaf.Context of the segment's own.
func (sr *segmentRun) openScorer() error {
	if sr.live {
		if st, ok := sr.cfg.live.stream(sr.onResult); ok {
			sr.scorer = st
			return nil
		}
	}
	sc, err := vmaf.NewContext(vmaf.Config{
		Models:   []*vmaf.Model{sr.cfg.Model},
		Threads:  sr.cfg.Threads,
		OnResult: sr.onResult,
	})
	if err != nil {
		return err
	}
	sr.scorer = sc
	return nil
}

func (sr *segmentRun) onResult(res *vmaf.Result) {
	v, ok := res.Get(sr.cfg.Model.Name)
	if !ok && sr.failure == nil {
		sr.failure = fmt.Errorf("no %s score for frame %d", sr.cfg.Model.Name, res.Index)
	}
	sr.p.Scores = append(sr.p.Scores, v)
	sr.scored++
	if sr.cfg.OnFrame != nil {
		sr.cfg.OnFrame(len(sr.p.Scores), sr.total, res)
	}
}

// drainEncoder passes every packet the encoder has ready to the decoder.
func (sr *segmentRun) drainEncoder() error {
	for {
		err := sr.enc.ReceivePacket(sr.pkt)
		if errors.Is(err, astiav.ErrEagain) || errors.Is(err, astiav.ErrEof) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s: %w", sr.cfg.Encoder.Name, err)
		}
		sr.p.Bytes += int64(sr.pkt.Size())
		if sr.p.window == nil {
			sr.p.window = map[int64]int64{}
		}
		// pts counts frames from the segment's start.
		sec := (int64(sr.seg.Start) + sr.pkt.Pts()) * int64(sr.r.Rate.Den()) / int64(sr.r.Rate.Num())
		sr.p.window[sec] += int64(sr.pkt.Size())
		if len(sr.p.header) == 0 {
			sr.p.header = append([]byte(nil), sr.pkt.Data()...)
		}
		if sr.cfg.KeepPackets {
			sr.p.packets = append(sr.p.packets, sr.pkt.Clone())
		}
		err = sr.decode(sr.pkt)
		sr.pkt.Unref()
		if err != nil {
			return err
		}
	}
}

// decode gives the decoder a packet (nil to drain it) and submits each
// frame it returns, with its reference frame, to the scorer.
func (sr *segmentRun) decode(pkt *astiav.Packet) error {
	for {
		serr := sr.dec.SendPacket(pkt)
		if serr != nil && !errors.Is(serr, astiav.ErrEagain) && !errors.Is(serr, astiav.ErrEof) {
			return fmt.Errorf("decoding %s's output: %w", sr.cfg.Encoder.Name, serr)
		}
		for {
			f := astiav.AllocFrame()
			err := sr.dec.ReceiveFrame(f)
			if errors.Is(err, astiav.ErrEagain) || errors.Is(err, astiav.ErrEof) {
				f.Free()
				break
			}
			if err != nil {
				f.Free()
				return fmt.Errorf("decoding %s's output: %w", sr.cfg.Encoder.Name, err)
			}
			if err := sr.submit(f); err != nil {
				return err
			}
		}
		if !errors.Is(serr, astiav.ErrEagain) {
			return nil
		}
	}
}

func (sr *segmentRun) submit(f *astiav.Frame) error {
	i := sr.seg.Start + sr.decoded
	if i >= sr.seg.End {
		f.Free()
		return fmt.Errorf("%s returned more frames than it was given", sr.cfg.Encoder.Name)
	}
	if _, err := ffsource.ViewFrame(f, sr.encFmt); err != nil {
		f.Free()
		return fmt.Errorf("decoded frame %d: %w", i, err)
	}
	if sr.up != nil {
		up, err := sr.up.scale(f)
		f.Free()
		if err != nil {
			return fmt.Errorf("decoded frame %d: %w", i, err)
		}
		f = up
	}
	pic, err := ffsource.ViewFrame(f, sr.r.Format)
	if err != nil {
		f.Free()
		return fmt.Errorf("decoded frame %d: %w", i, err)
	}
	sr.decoded++
	return sr.scorer.Submit(sr.r.pics[i], pic, f.Free)
}

// input makes sr.in the encoder's next frame: a reference to the
// source's frame, or a scaled copy of it.
func (sr *segmentRun) input(src *astiav.Frame) error {
	if sr.down == nil {
		return sr.in.Ref(src)
	}
	f, err := sr.down.scale(src)
	if err != nil {
		return err
	}
	sr.in.MoveRef(f)
	f.Free()
	return nil
}

func (sr *segmentRun) close() {
	sr.down.close()
	sr.up.close()
	if sr.scorer != nil {
		sr.scorer.Close()
	}
	for _, c := range []*astiav.CodecContext{sr.enc, sr.dec} {
		if c != nil {
			c.Free()
		}
	}
	if sr.pkt != nil {
		sr.pkt.Free()
	}
	if sr.in != nil {
		sr.in.Free()
	}
}
