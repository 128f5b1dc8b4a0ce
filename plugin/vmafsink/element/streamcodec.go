package element

/*
#include "gstglue.h"
*/
import "C"

import (
	"fmt"
	"strings"
	"sync"
	"unsafe"

	"github.com/vmafsink/vmafsink/vmaf"
)

// A codec-aware learned model (fr_regressor_v2/v3) is told which encoder
// made the distorted stream. When the model's options do not name it,
// the element takes it from the tags arriving on dist_sink: the stream's
// encoder tag (x264enc's "x264", FFmpeg's "Lavc59.37.100 libx264" in
// Matroska), else its video-codec tag ("H.264 / AVC"); the container's
// (global) tags only where the stream's own say nothing. The model with
// that encoder in its codec block takes over at the next frame boundary,
// as a swap would, so that every frame is scored with one block.

// streamCodec is what dist_sink's tags said, and the model made for it.
type streamCodec struct {
	mu sync.Mutex
	// base is the run's model when it takes its encoder from the stream;
	// nil otherwise, and the tags are then not read.
	base *vmaf.Model
	// own and global are the stream's own tags and the container's;
	// streamID the stream they belong to.
	own, global vmaf.StreamCodec
	streamID    string
	// seen is the tags last acted on; current the model made for them
	// (base before any), enc the encoder it names.
	seen    vmaf.StreamCodec
	current *vmaf.Model
	enc     vmaf.StreamEncoder
}

func (sc *streamCodec) init(m *vmaf.Model) {
	if m.TakesStreamCodec() {
		sc.base, sc.current = m, m
	}
}

// distStreamStart forgets the tags of the stream before when a
// stream-start on dist_sink names another stream, as GStreamer drops a
// pad's tags at a new stream: its tags, stream and container alike, are
// read afresh. The model keeps the codec block it has until they name an
// encoder, so that a stream that brings no tags is scored as before.
func (st *runState) distStreamStart(ev *C.GstEvent) {
	sc := &st.codec
	if sc.base == nil {
		return
	}
	id := C.GoString(C.vs_event_stream_id(ev))
	sc.mu.Lock()
	defer sc.mu.Unlock()
	if id == sc.streamID {
		return
	}
	if sc.streamID != "" {
		st.e.logf(lvlInfo, "dist_sink: stream %q follows %q: its codec tags are read afresh", id, sc.streamID)
	}
	sc.streamID = id
	sc.own, sc.global, sc.seen = vmaf.StreamCodec{}, vmaf.StreamCodec{}, vmaf.StreamCodec{}
}

// distTags reads a tag event that arrived on dist_sink.
func (st *runState) distTags(ev *C.GstEvent) {
	sc := &st.codec
	if sc.base == nil {
		return
	}
	var enc, format *C.gchar
	var global C.gboolean
	C.vs_event_codec_tags(ev, &enc, &format, &global)
	encoder, videoCodec := takeGString(enc), takeGString(format)
	if strings.Contains(strings.ToLower(videoCodec), "raw") {
		// Demuxers of uncompressed video say "raw video": no encode.
		videoCodec = ""
	}
	if encoder == "" && videoCodec == "" {
		return
	}
	sc.mu.Lock()
	defer sc.mu.Unlock()
	into := &sc.own
	if global != 0 {
		into = &sc.global
	}
	if encoder != "" {
		into.Encoder = encoder
	}
	if videoCodec != "" {
		into.Format = videoCodec
	}
	said := sc.own
	if said.Encoder == "" {
		said.Encoder = sc.global.Encoder
	}
	if said.Format == "" {
		said.Format = sc.global.Format
	}
	if said == sc.seen {
		return
	}
	sc.seen = said
	st.applyStreamCodec(said)
}

// applyStreamCodec gives the run's model the encoder the tags name.
// Called with sc.mu held.
func (st *runState) applyStreamCodec(said vmaf.StreamCodec) {
	sc, e := &st.codec, st.e
	m, enc, err := sc.base.WithStreamCodec(said)
	if err != nil {
		what := "the codec block stays as it was"
		if sc.current == sc.base {
			what = "no frame can be scored until a tag names the encoder"
		}
		e.warn(fmt.Sprintf("dist_sink's tags (%s) give model %s no codec block: %s", said, sc.base.Name, what),
			fmt.Sprintf("%v; name the encoder in the model's options (codec=...)", err))
		return
	}
	if sc.current != sc.base && enc.Name == sc.enc.Name {
		return
	}
	if cur := st.runner.Status().Models; len(cur) == 0 || (cur[0] != sc.base && cur[0] != sc.current) {
		e.logf(lvlInfo, "dist_sink's tags (%s) name encoder %s, but model %s is no longer the one scoring: left alone", said, enc.Name, sc.base.Name)
		return
	}
	if _, err := st.runner.RequestSwap(m); err != nil {
		e.warn(fmt.Sprintf("model %s: cannot take encoder %s from dist_sink's tags", sc.base.Name, enc.Name), err.Error())
		return
	}
	sc.current, sc.enc = m, enc
	switch enc.From {
	case "encoder":
		e.logf(lvlInfo, "dist_sink's tags (%s): model %s scores as encoder %s from the next frame", said, m.Name, enc.Name)
	case "format":
		e.logf(lvlInfo, "dist_sink's tags (%s) name no encoder: model %s scores as %s, the format's usual encoder, from the next frame", said, m.Name, enc.Name)
	default:
		e.warn(fmt.Sprintf("dist_sink's tags (%s) name no encoder model %s knows: scored with its \"unknown\" encoder", said, m.Name),
			"name the encoder in the model's options (codec=...) to score it as that encoder")
	}
}

// takeGString copies and frees a string GStreamer allocated.
func takeGString(s *C.gchar) string {
	if s == nil {
		return ""
	}
	defer C.g_free(C.gpointer(unsafe.Pointer(s)))
	return C.GoString((*C.char)(unsafe.Pointer(s)))
}
