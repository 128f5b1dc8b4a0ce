package report

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// countFrames parses a document and returns how many frames it holds; an
// error means the document is not valid.
func countFrames(format Format, data []byte) (int, error) {
	switch format {
	case JSON:
		var doc libvmafJSON
		err := json.Unmarshal(data, &doc)
		return len(doc.Frames), err
	case XML:
		var doc libvmafXML
		err := xml.Unmarshal(data, &doc)
		return len(doc.Frames), err
	case CSV:
		rows, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
		return len(rows) - 1, err
	}
	return 0, fmt.Errorf("no parser for %v", format)
}

// A file written through Create is a valid document after every frame,
// holding exactly the frames written so far, and ends identical to the
// document assembled in memory.
func TestFileValidAfterEveryFrame(t *testing.T) {
	frames := testFrames(12)
	for _, format := range []Format{JSON, XML, CSV} {
		t.Run(format.String(), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "out")
			w, err := Create(path, Options{Format: format, Width: 640, Height: 360, Now: fakeClock(time.Second / 8)})
			if err != nil {
				t.Fatal(err)
			}
			if format != CSV { // an empty CSV has only its header line
				checkFile(t, format, path, 0)
			}
			for i, f := range frames {
				if err := w.WriteFrame(f); err != nil {
					t.Fatal(err)
				}
				checkFile(t, format, path, i+1)
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			got, _ := os.ReadFile(path)
			if want := writeAll(t, format, frames); !bytes.Equal(got, want) {
				t.Errorf("closed file differs from the in-memory document:\n%s\nwant\n%s", got, want)
			}
		})
	}
}

func checkFile(t *testing.T, format Format, path string, frames int) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	n, err := countFrames(format, data)
	if err != nil || n != frames {
		t.Fatalf("after %d frames: %d frames parsed, err %v:\n%s", frames, n, err, data)
	}
}

// With batched commits the file holds the last committed frames; Close
// moves them when the final header is longer (here the rate becomes
// "1000.00" where "null" stood) and a large body takes several copy chunks.
func TestFileBatchedCommitsAndHeaderMove(t *testing.T) {
	frames := testFrames(400) // ~80 KB of frames: more than one copy chunk
	path := filepath.Join(t.TempDir(), "out.json")
	w, err := Create(path, Options{Format: JSON, CommitInterval: 100 * time.Millisecond, Now: fakeClock(time.Millisecond)})
	if err != nil {
		t.Fatal(err)
	}
	for i, f := range frames {
		if err := w.WriteFrame(f); err != nil {
			t.Fatal(err)
		}
		if i == 250 {
			// Commits happen every 100 frames (100 ticks), the last after
			// frame 199; Commit forces the rest.
			checkFile(t, JSON, path, 200)
			if err := w.Commit(); err != nil {
				t.Fatal(err)
			}
			checkFile(t, JSON, path, 251)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	var doc libvmafJSON
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Frames) != len(frames) || doc.FPS == nil || *doc.FPS != 1000 {
		t.Fatalf("%d frames, fps %v", len(doc.Frames), doc.FPS)
	}
	if !bytes.Contains(data, []byte("\"fps\": 1000.00,\n")) || doc.Frames[399].FrameNum != 399 {
		t.Error("final header or last frame wrong")
	}
}

func TestFileHeaderShrinks(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out.json")
	w, err := Create(path, Options{Format: JSON, Now: fakeClock(time.Second)})
	if err != nil {
		t.Fatal(err)
	}
	w.headerLen += 40 // pretend the header on disk is longer than the final one
	w.end += 40
	w.file.WriteAt(bytes.Repeat([]byte{' '}, int(w.end)), 0)
	for _, f := range testFrames(3) {
		w.WriteFrame(f)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	if n, err := countFrames(JSON, data); err != nil || n != 3 || data[0] != '{' {
		t.Fatalf("%d frames, %v:\n%s", n, err, data)
	}
}

// Writing frames to a file does not allocate once the metric names are
// known and the buffers have grown.
func TestFileWriteFrameAllocs(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out.json")
	w, err := Create(path, Options{Format: JSON})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	frames := testFrames(4)
	for _, f := range frames {
		w.WriteFrame(f)
	}
	i := 0
	allocs := testing.AllocsPerRun(50, func() {
		w.WriteFrame(frames[i%len(frames)])
		i++
	})
	if allocs != 0 {
		t.Errorf("WriteFrame allocates %v times per frame", allocs)
	}
}
