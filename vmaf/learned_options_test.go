package vmaf

import "testing"

func TestLearnedOptionsApply(t *testing.T) {
	for _, c := range []struct {
		name string
		o    LearnedOptions
		spec string
		want string
	}{
		{"none", LearnedOptions{}, "path=/m/nr_metric_v1.onnx", "path=/m/nr_metric_v1.onnx"},
		{"all", LearnedOptions{Threads: 2, Device: "CPU", Verify: true}, "path=/m/nr_metric_v1.onnx",
			"path=/m/nr_metric_v1.onnx:threads=2:device=cpu:verify=strict"},
		{"spec wins", LearnedOptions{Threads: 2}, "path=/m/a.onnx:threads=4", "path=/m/a.onnx:threads=4"},
		{"svm untouched", LearnedOptions{Threads: 2, Verify: true}, "vmaf_v0.6.1", "vmaf_v0.6.1"},
		{"svm file untouched", LearnedOptions{Threads: 2}, "path=/m/vmaf.json", "path=/m/vmaf.json"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := c.o.Apply(c.spec); got != c.want {
				t.Errorf("Apply(%q) = %q, want %q", c.spec, got, c.want)
			}
		})
	}
}
