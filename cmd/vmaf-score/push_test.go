package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// pushgateway starts Debian's prometheus-pushgateway on a free loopback
// port and returns its URL once it answers ready.
func pushgateway(t *testing.T) string {
	t.Helper()
	bin, err := exec.LookPath("prometheus-pushgateway")
	if err != nil {
		t.Fatal("prometheus-pushgateway is needed (apt-get install prometheus-pushgateway; scripts/deps.sh installs it)")
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, bin, "--web.listen-address="+addr)
	cmd.Dir = t.TempDir()
	if err := cmd.Start(); err != nil {
		cancel()
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); cmd.Wait() })
	url := "http://" + addr
	deadline := time.Now().Add(60 * time.Second)
	for {
		if resp, err := http.Get(url + "/-/ready"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return url
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the pushgateway on %s did not become ready", addr)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// A run too short for any scrape leaves its final metrics on the
// Pushgateway.
func TestMetricsPush(t *testing.T) {
	url := pushgateway(t)
	out := filepath.Join(t.TempDir(), "out.json")
	res := vmafScore(t, "-q", "-r", goldenY4M(t, smallRef), "-d", goldenY4M(t, smallDist), "--metrics-push", url, "--json", "-o", out)
	if res.code != 0 {
		t.Fatalf("exit %d: %s", res.code, res.stderr)
	}
	resp, err := http.Get(url + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	host, _ := os.Hostname()
	for _, want := range []string{
		fmt.Sprintf(`vmaf_frames_scored_total{element="vmaf-score",instance=%q,job="vmaf-score"} 8`, host),
		`vmaf_score_count{element="vmaf-score",instance=` + fmt.Sprintf("%q", host) + `,job="vmaf-score",model="vmaf"} 8`,
	} {
		if !strings.Contains(string(body), want) {
			t.Errorf("the pushgateway lacks %q", want)
		}
	}
	if t.Failed() {
		t.Logf("pushgateway /metrics:\n%s", grepVMAF(string(body)))
	}

	// A push that fails fails the run, with the scores written.
	dead := "http://" + strings.TrimPrefix(url, "http://")[:strings.LastIndex(strings.TrimPrefix(url, "http://"), ":")] + ":1"
	res = vmafScore(t, "-q", "-r", goldenY4M(t, smallRef), "-d", goldenY4M(t, smallDist), "--metrics-push", dead, "--json", "-o", out)
	if res.code != exitError || !strings.Contains(res.stderr, "--metrics-push "+dead) {
		t.Errorf("dead pushgateway: exit %d, stderr %q", res.code, res.stderr)
	}
	if l := readLog(t, out); len(l.Frames) != 8 {
		t.Errorf("%d frames written", len(l.Frames))
	}
	if res := vmafScore(t, "-r", "a.y4m", "-d", "b.y4m", "--metrics-push", "127.0.0.1:9091"); res.code != exitUsage {
		t.Errorf("a push URL without scheme: exit %d", res.code)
	}
}

func grepVMAF(s string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.HasPrefix(l, "vmaf_") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}
