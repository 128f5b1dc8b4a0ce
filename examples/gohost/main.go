// Command gohost scores a pipeline with vmafsink from a Go program that
// drives GStreamer through go-gst: the element is registered in-process
// with gstvmafsink.Register, not loaded from libgstvmafsink.so.
//
//	go run ./examples/gohost [-frames N]
package main

import (
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/go-gst/go-gst/gst"
	"github.com/vmafsink/vmafsink/plugin/vmafsink/gstvmafsink"
)

func main() {
	frames := flag.Int("frames", 30, "frames to score")
	flag.Parse()
	gst.Init(nil)
	if !gstvmafsink.Register() {
		fmt.Fprintln(os.Stderr, "gohost: cannot register vmafsink")
		os.Exit(1)
	}
	// The distorted branch is the reference with its colours washed out.
	pipeline, err := gst.NewPipelineFromString(fmt.Sprintf(
		"videotestsrc num-buffers=%d ! video/x-raw,format=I420,width=320,height=240,framerate=30/1 ! tee name=t "+
			"t. ! queue ! v.ref_sink t. ! queue ! videobalance saturation=0.2 contrast=0.8 ! v.dist_sink "+
			"vmafsink name=v frame-message=false", *frames))
	if err != nil {
		fmt.Fprintln(os.Stderr, "gohost:", err)
		os.Exit(1)
	}
	bus := pipeline.GetPipelineBus()
	if err := pipeline.SetState(gst.StatePlaying); err != nil {
		fmt.Fprintln(os.Stderr, "gohost:", err)
		os.Exit(1)
	}
	defer pipeline.SetState(gst.StateNull)
	for {
		msg := bus.TimedPop(gst.ClockTime(30 * time.Second))
		if msg == nil {
			fmt.Fprintln(os.Stderr, "gohost: no EOS within 30 s")
			os.Exit(1)
		}
		switch msg.Type() {
		case gst.MessageError:
			fmt.Fprintln(os.Stderr, "gohost:", msg.ParseError())
			os.Exit(1)
		case gst.MessageElement:
			if s := msg.GetStructure(); s != nil && s.Name() == "VMAF" {
				if t, _ := s.GetValue("type"); t == "pooled" {
					n, _ := s.GetValue("frames-scored")
					score, _ := s.GetValue("score")
					fmt.Printf("frames-scored=%v score=%v\n", n, score)
				}
			}
		case gst.MessageEOS:
			fmt.Println("eos")
			return
		}
	}
}
