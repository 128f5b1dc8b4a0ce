package ffsource

import (
	"errors"
	"fmt"
	"github.com/vmafsink/vmafsink/internal/framesize"
	"math"
	"sync"
	"sync/atomic"
	"time"

	"github.com/asticode/go-astiav"

	"github.com/vmafsink/vmafsink/vmaf"
)

// NoPTS marks a frame without a presentation timestamp.
const NoPTS = time.Duration(math.MinInt64)

// DefaultBuffers is how many frames a Source decodes into when
// Options.Buffers is 0.
const DefaultBuffers = 4

// Options configure how an input is opened.
type Options struct {
	// InputFormat forces a demuxer by FFmpeg's name ("rawvideo", "nut",
	// "yuv4mpegpipe", ...) instead of probing the input.
	InputFormat string
	// Width, Height, PixelFormat (FFmpeg's name, e.g. "yuv420p" or
	// "nv12") and FrameRate ("25", "30000/1001") describe rawvideo input.
	Width, Height int
	PixelFormat   string
	FrameRate     string
	// VideoStream picks the input's video stream: 0 is the first.
	VideoStream int
	// Buffers is how many frames may be decoded ahead or held by the
	// consumer at once (0: DefaultBuffers). Decoding waits when all are
	// out, so it must exceed what the consumer holds before releasing.
	Buffers int
	// DecoderThreads is passed to the decoder; 0 lets FFmpeg choose.
	DecoderThreads int
	// Demuxers and Protocols, when set, are FFmpeg's format and protocol
	// whitelists (comma-separated names): an input of another container,
	// or one that would open another protocol, is refused. They keep an
	// input from leading FFmpeg to other files or the network.
	Demuxers, Protocols string
	// Filter, when set, is an FFmpeg filter graph (libavfilter's syntax,
	// one video input and one output, e.g. "crop=1920:800,yadif") applied
	// to the decoded frames before anything else: Info describes its
	// output. Filters run in this process, with the program's rights.
	Filter string
}

// Info describes an opened input.
type Info struct {
	Format              // what Next delivers; see Conform
	Codec       string  // decoder name
	PixelFormat string  // the decoder's pixel format
	FrameRate   float64 // frames per second; 0 when unknown
	// FrameRateQ is FrameRate as the container gives it, a fraction
	// (zero when unknown), for encoders that need an exact time base.
	FrameRateQ astiav.Rational
	Frames     int // frame count the container announces, or estimated from its duration; 0 when unknown
	// HDR names the stream's high-dynamic-range transfer function as
	// its parameters give it, "PQ" (SMPTE ST 2084) or "HLG"; "" for any
	// other (SDR, or not said).
	HDR string
}

// Frame is one decoded picture.
type Frame struct {
	Picture  *vmaf.Picture
	PTS      time.Duration // presentation time on the input's timeline; NoPTS when unknown
	Duration time.Duration // 0 when unknown
	Index    int           // position in decoding output order, from 0

	release func()
}

// Release gives the frame back to its Source. Call it exactly once.
func (f Frame) Release() {
	if f.release != nil {
		f.release()
	}
}

// ReleaseFunc returns Release as a func value without allocating, for
// vmaf.Context.Submit's release callback.
func (f Frame) ReleaseFunc() func() { return f.release }

// Source decodes one video stream. Next and Close are for one goroutine;
// Release may be called from any.
type Source struct {
	name   string
	url    string
	opts   Options
	fc     *astiav.FormatContext
	intr   astiav.IOInterrupter
	cc     *astiav.CodecContext
	stream *astiav.Stream
	pkt    *astiav.Packet
	info   Info

	conv converter

	graph      *filterGraph  // Options.Filter's graph; nil without one
	unfiltered *astiav.Frame // the decoder's output before the graph

	slots []*slot
	free  chan *slot
	out   chan item
	stop  chan struct{}
	done  chan struct{}

	mu     sync.Mutex // guards closed against Release
	closed bool

	started bool
	err     error // sticky end: io.EOF or why decoding stopped
	decoded int   // frames delivered so far
	spare   *slot // taken from free but not filled (the decoder wanted more input)

	pending  bool         // s.pkt holds a packet the decoder has yet to take (left by SkipFrames)
	produced atomic.Int64 // frames the decoder produced, those SkipFrames dropped included
}

type item struct {
	slot *slot
	err  error
}

// Open opens url ("-" for standard input) and prepares its video
// stream's decoder. Errors name the input and say what went wrong in one
// line.
func Open(url string, opts Options) (*Source, error) {
	if url == "" {
		// FFmpeg dereferences an empty URL.
		return nil, errors.New("ffsource: no input named")
	}
	name := url
	if url == "-" {
		url, name = "pipe:0", "standard input"
	}
	s := &Source{name: name}
	if err := s.open(url, opts); err != nil {
		s.closeContexts()
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	n := opts.Buffers
	if n <= 0 {
		n = DefaultBuffers
	}
	s.free = make(chan *slot, n)
	s.out = make(chan item, n)
	s.stop = make(chan struct{})
	s.done = make(chan struct{})
	for i := 0; i < n; i++ {
		sl := &slot{in: astiav.AllocFrame()}
		sl.release = func() { s.put(sl) }
		s.slots = append(s.slots, sl)
		s.free <- sl
	}
	return s, nil
}

func (s *Source) open(url string, opts Options) error {
	s.url, s.opts = url, opts
	s.fc = astiav.AllocFormatContext()
	if s.fc == nil {
		return errors.New("cannot allocate a demuxer")
	}
	s.intr = s.fc.SetInterruptCallback()
	var ifmt *astiav.InputFormat
	if opts.InputFormat != "" {
		if ifmt = astiav.FindInputFormat(opts.InputFormat); ifmt == nil {
			return fmt.Errorf("unknown input format %q", opts.InputFormat)
		}
	}
	dict := astiav.NewDictionary()
	defer dict.Free()
	if opts.Width > 0 && opts.Height > 0 {
		dict.Set("video_size", fmt.Sprintf("%dx%d", opts.Width, opts.Height), 0)
	}
	if opts.PixelFormat != "" {
		dict.Set("pixel_format", opts.PixelFormat, 0)
	}
	if opts.FrameRate != "" {
		dict.Set("framerate", opts.FrameRate, 0)
	}
	if opts.Demuxers != "" {
		dict.Set("format_whitelist", opts.Demuxers, 0)
	}
	if opts.Protocols != "" {
		dict.Set("protocol_whitelist", opts.Protocols, 0)
	}
	if err := s.fc.OpenInput(url, ifmt, dict); err != nil {
		// FFmpeg has freed the demuxer's C side; drop the Go side.
		s.fc.Free()
		s.fc = nil
		if opts.Demuxers != "" {
			return fmt.Errorf("cannot open (%w): not a readable file, or its container is not one of %s", err, opts.Demuxers)
		}
		return fmt.Errorf("cannot open: %w", err)
	}
	if err := s.fc.FindStreamInfo(nil); err != nil {
		return fmt.Errorf("cannot read stream information: %w", err)
	}
	nth := 0
	for _, st := range s.fc.Streams() {
		if st.CodecParameters().MediaType() != astiav.MediaTypeVideo {
			continue
		}
		if nth == opts.VideoStream {
			s.stream = st
			break
		}
		nth++
	}
	if s.stream == nil {
		if opts.VideoStream > 0 {
			return fmt.Errorf("no video stream #%d (found %d)", opts.VideoStream, nth)
		}
		return errors.New("no video stream")
	}
	return s.openDecoder(opts)
}

func (s *Source) openDecoder(opts Options) error {
	cp := s.stream.CodecParameters()
	// Before a decoder allocates anything for the size the stream claims.
	if cp.Width() > 0 && cp.Height() > 0 {
		if err := framesize.Check(cp.Width(), cp.Height()); err != nil {
			return fmt.Errorf("video stream: %w", err)
		}
	}
	codec, err := s.newDecoder(opts)
	if err != nil {
		return err
	}
	pf := cp.PixelFormat()
	depth, chroma, err := planarFor(pf)
	if err != nil {
		return err
	}
	if pf != pixelFormatOf(depth, chroma) && !convertible(pf) {
		return fmt.Errorf("unsupported pixel format %s (swscale cannot convert it)", pf.Name())
	}
	if cp.Width() <= 0 || cp.Height() <= 0 {
		return fmt.Errorf("video stream has no size (%dx%d)", cp.Width(), cp.Height())
	}
	s.pkt = astiav.AllocPacket()
	s.info = Info{
		Format:      Format{Width: cp.Width(), Height: cp.Height(), BitDepth: depth, Chroma: chroma},
		Codec:       codec.Name(),
		PixelFormat: pf.Name(),
	}
	switch cp.ColorTransferCharacteristic() {
	case astiav.ColorTransferCharacteristicSmpte2084:
		s.info.HDR = "PQ"
	case astiav.ColorTransferCharacteristicAribStdB67:
		s.info.HDR = "HLG"
	}
	if r := s.stream.AvgFrameRate(); r.Num() > 0 && r.Den() > 0 {
		s.info.FrameRate = r.Float64()
		s.info.FrameRateQ = r
	}
	s.info.Frames = int(s.stream.NbFrames())
	if d := s.stream.Duration(); s.info.Frames <= 0 && d > 0 && s.info.FrameRate > 0 {
		s.info.Frames = int(math.Round(float64(d) * s.stream.TimeBase().Float64() * s.info.FrameRate))
	}
	if opts.Filter != "" {
		if err := s.openFilter(opts.Filter); err != nil {
			return err
		}
	}
	s.conv.setOutput(s.info.Format, "")
	return nil
}

// newDecoder opens a decoder for the stream, in s.cc.
func (s *Source) newDecoder(opts Options) (*astiav.Codec, error) {
	cp := s.stream.CodecParameters()
	codec := astiav.FindDecoder(cp.CodecID())
	if codec == nil {
		return nil, fmt.Errorf("no decoder for codec %s", cp.CodecID())
	}
	if s.cc = astiav.AllocCodecContext(codec); s.cc == nil {
		return nil, errors.New("cannot allocate a decoder")
	}
	if err := cp.ToCodecContext(s.cc); err != nil {
		return nil, fmt.Errorf("decoder parameters: %w", err)
	}
	s.cc.SetThreadCount(opts.DecoderThreads)
	if err := s.cc.Open(codec, nil); err != nil {
		return nil, fmt.Errorf("cannot open %s decoder: %w", codec.Name(), err)
	}
	return codec, nil
}

// Info describes the input and the pictures Next delivers.
func (s *Source) Info() Info { return s.info }

// Conform makes Next deliver pictures in format f: frames in another
// pixel format are converted, and frames of another size are scaled with
// the swscale algorithm named by scale, or refused when scale is empty.
// Call it before the first Next.
func (s *Source) Conform(f Format, scale string) error {
	if s.started {
		return errors.New("ffsource: Conform after decoding started")
	}
	if scale != "" {
		if _, err := ParseScaleAlgorithm(scale); err != nil {
			return err
		}
	}
	if err := s.conv.setOutput(f, scale); err != nil {
		return fmt.Errorf("%s: %w", s.name, err)
	}
	s.info.Format = f
	return nil
}

// Next returns the next frame, io.EOF after the last one, or the error
// that stopped decoding (which it returns again on every later call).
func (s *Source) Next() (Frame, error) {
	if s.err != nil {
		return Frame{}, s.err
	}
	if !s.started {
		s.started = true
		go s.run()
	}
	it := <-s.out
	if it.err != nil {
		s.err = it.err
		return Frame{}, it.err
	}
	sl := it.slot
	return Frame{Picture: &sl.pic, PTS: sl.pts, Duration: sl.dur, Index: sl.index, release: sl.release}, nil
}

// Close stops decoding and frees the decoder. Frames still out are freed
// when they are released.
func (s *Source) Close() error {
	if s.started {
		close(s.stop)
		s.intr.Interrupt()
		<-s.done
		for len(s.out) > 0 {
			if it := <-s.out; it.slot != nil {
				s.put(it.slot)
			}
		}
	}
	if s.spare != nil {
		s.put(s.spare)
		s.spare = nil
	}
	s.mu.Lock()
	s.closed = true
	for len(s.free) > 0 {
		(<-s.free).destroy()
	}
	s.mu.Unlock()
	s.closeContexts()
	return nil
}

// closeContexts releases the FFmpeg contexts.
func (s *Source) closeContexts() {
	s.conv.close()
	if s.graph != nil {
		s.graph.free()
		s.graph = nil
	}
	if s.unfiltered != nil {
		s.unfiltered.Free()
		s.unfiltered = nil
	}
	if s.pkt != nil {
		s.pkt.Free()
		s.pkt = nil
	}
	if s.cc != nil {
		s.cc.Free()
		s.cc = nil
	}
	if s.fc != nil {
		s.fc.CloseInput()
		s.fc.Free()
		s.fc = nil
	}
}

// put takes a frame back: ready for decoding into, or freed once the
// Source is closed.
func (s *Source) put(sl *slot) {
	sl.in.Unref()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		sl.destroy()
		return
	}
	s.free <- sl // never blocks: the channel holds every slot
}
