// Command gohost scores a pipeline with vmafsink from a Go program that
// drives GStreamer through go-gst: the element is registered in-process
// with gstvmafsink.Register, not loaded from libgstvmafsink.so.
//
//	go run ./examples/gohost [-frames N] [-replays N]
//
// The stream is the source's first N frames: a seek with a stop, given
// to the source in READY, which applies it when it starts, so that no
// frame from before it is ever delivered. With -replays, each EOS is
// followed by a flushing seek back to the start, which plays the stream
// again to a new EOS, as a player's "play again" does.
package main

import (
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/go-gst/go-gst/gst"
	"github.com/vmafsink/vmafsink/plugin/vmafsink/gstvmafsink"
)

const fps = 30

func main() {
	frames := flag.Int("frames", 30, "frames to score")
	replays := flag.Int("replays", 0, "times to seek back to the start after EOS and play again")
	flag.Parse()
	gst.Init(nil)
	if !gstvmafsink.Register() {
		fmt.Fprintln(os.Stderr, "gohost: cannot register vmafsink")
		os.Exit(1)
	}
	// The distorted branch is the reference with its colours washed out.
	pipeline, err := gst.NewPipelineFromString(fmt.Sprintf(
		"videotestsrc name=src ! video/x-raw,format=I420,width=320,height=240,framerate=%d/1 ! tee name=t "+
			"t. ! queue ! v.ref_sink t. ! queue ! videobalance saturation=0.2 contrast=0.8 ! v.dist_sink "+
			"vmafsink name=v frame-message=false", fps))
	if err != nil {
		fail(err)
	}
	defer pipeline.SetState(gst.StateNull)
	bus := pipeline.GetPipelineBus()
	// The stream is the first N frames: a seek whose stop ends it.
	seek := func() *gst.Event {
		stop := int64(*frames) * int64(time.Second) / fps
		return gst.NewSeekEvent(1, gst.FormatTime, gst.SeekFlagFlush|gst.SeekFlagAccurate,
			gst.SeekTypeSet, 0, gst.SeekTypeSet, stop-int64(time.Second)/(2*fps))
	}
	// In READY the source keeps the seek for its start: no frame from
	// before it is ever made, so none is prerolled only to be flushed.
	src, err := pipeline.GetElementByName("src")
	if err != nil {
		fail(err)
	}
	if err := pipeline.SetState(gst.StateReady); err != nil {
		fail(err)
	}
	if !src.SendEvent(seek()) {
		fail(fmt.Errorf("the source refused the seek to its first %d frames", *frames))
	}
	if err := pipeline.SetState(gst.StatePlaying); err != nil {
		fail(err)
	}
	for {
		wait(bus, gst.MessageEOS)
		fmt.Println("eos")
		if *replays == 0 {
			return
		}
		*replays--
		if !pipeline.SendEvent(seek()) {
			fail(fmt.Errorf("the pipeline refused the seek after EOS"))
		}
	}
}

// wait returns once the bus has a message of type want, printing the
// pooled score on the way; an error or 30 s without one ends the program.
func wait(bus *gst.Bus, want gst.MessageType) {
	for {
		msg := bus.TimedPop(gst.ClockTime(30 * time.Second))
		if msg == nil {
			fail(fmt.Errorf("no %s within 30 s", want))
		}
		switch msg.Type() {
		case gst.MessageError:
			fail(msg.ParseError())
		case gst.MessageElement:
			if s := msg.GetStructure(); s != nil && s.Name() == "VMAF" {
				if t, _ := s.GetValue("type"); t == "pooled" {
					n, _ := s.GetValue("frames-scored")
					score, _ := s.GetValue("score")
					fmt.Printf("frames-scored=%v score=%v\n", n, score)
				}
			}
		case want:
			return
		}
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "gohost:", err)
	os.Exit(1)
}
