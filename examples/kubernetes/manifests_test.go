// Package kubernetes holds the tests of the Kubernetes example: its
// manifests decode strictly into the API's own types, and the commands
// their pods run, run here as processes with the same environment, make
// the documents one run makes.
package kubernetes

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"
)

// manifests reads every document of every manifest, strictly: a field the
// API does not have, or one given twice, is an error.
func manifests(t *testing.T) (jobs map[string]*batchv1.Job, claims map[string]*corev1.PersistentVolumeClaim) {
	t.Helper()
	files, err := filepath.Glob("manifests/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no manifests: %v", err)
	}
	jobs, claims = map[string]*batchv1.Job{}, map[string]*corev1.PersistentVolumeClaim{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, doc := range bytes.Split(data, []byte("\n---\n")) {
			var head struct {
				APIVersion string `json:"apiVersion"`
				Kind       string `json:"kind"`
			}
			if err := yaml.Unmarshal(doc, &head); err != nil {
				t.Fatalf("%s #%d: %v", f, i, err)
			}
			var name string
			switch head.APIVersion + " " + head.Kind {
			case "batch/v1 Job":
				var j batchv1.Job
				if err := yaml.UnmarshalStrict(doc, &j); err != nil {
					t.Fatalf("%s #%d: %v", f, i, err)
				}
				name = j.Name
				jobs[name] = &j
			case "v1 PersistentVolumeClaim":
				var c corev1.PersistentVolumeClaim
				if err := yaml.UnmarshalStrict(doc, &c); err != nil {
					t.Fatalf("%s #%d: %v", f, i, err)
				}
				name = c.Name
				claims[name] = &c
			default:
				t.Fatalf("%s #%d: unexpected %s %s", f, i, head.APIVersion, head.Kind)
			}
			if name == "" {
				t.Fatalf("%s #%d: no metadata.name", f, i)
			}
		}
	}
	return jobs, claims
}

func envOf(c *corev1.Container) map[string]string {
	env := map[string]string{}
	for _, e := range c.Env {
		env[e.Name] = e.Value
	}
	return env
}

// TestManifests checks what the Jobs promise besides decoding: indexed
// completion with SHARDS equal to completions, the shared claim mounted
// where DATA says, and requests and limits on every container.
func TestManifests(t *testing.T) {
	jobs, claims := manifests(t)
	for _, name := range []string{"vmaf-shards", "vmaf-merge", "vmaf-batch"} {
		j, ok := jobs[name]
		if !ok {
			t.Fatalf("no Job %s", name)
		}
		spec := j.Spec.Template.Spec
		if spec.RestartPolicy != corev1.RestartPolicyNever {
			t.Errorf("%s: restartPolicy %q, want Never (a failed pod is retried as a new one)", name, spec.RestartPolicy)
		}
		if len(spec.Containers) != 1 {
			t.Fatalf("%s: %d containers", name, len(spec.Containers))
		}
		c := &spec.Containers[0]
		env := envOf(c)
		if name != "vmaf-merge" {
			if j.Spec.CompletionMode == nil || *j.Spec.CompletionMode != batchv1.IndexedCompletion {
				t.Errorf("%s: not an Indexed Job", name)
			}
			if j.Spec.Completions == nil || fmt.Sprint(*j.Spec.Completions) != env["SHARDS"] {
				t.Errorf("%s: SHARDS %q differs from completions", name, env["SHARDS"])
			}
		}
		if c.Resources.Requests.Memory().IsZero() || c.Resources.Limits.Memory().IsZero() || c.Resources.Requests.Cpu().IsZero() {
			t.Errorf("%s: requests and limits must give memory and cpu", name)
		}
		mounted := false
		for _, m := range c.VolumeMounts {
			for _, v := range spec.Volumes {
				if v.Name == m.Name && v.PersistentVolumeClaim != nil && claims[v.PersistentVolumeClaim.ClaimName] != nil && m.MountPath == env["DATA"] {
					mounted = true
				}
			}
		}
		if !mounted {
			t.Errorf("%s: the shared claim is not mounted at DATA (%q)", name, env["DATA"])
		}
	}
}

// TestStrictDecodingRefusesUnknownFields makes sure the decoding above
// would catch a misspelt field.
func TestStrictDecodingRefusesUnknownFields(t *testing.T) {
	doc := []byte("apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: x\nspec:\n  completionMode: Indexed\n  paralellism: 2\n")
	var j batchv1.Job
	if err := yaml.UnmarshalStrict(doc, &j); err == nil || !strings.Contains(err.Error(), "paralellism") {
		t.Fatalf("a misspelt field decoded: %v", err)
	}
}

var (
	fpsField = regexp.MustCompile(`"fps": [^,\n]*`)
	fpsAttr  = regexp.MustCompile(`fps="[^"]*"`)
)
