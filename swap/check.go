package swap

import "github.com/vmafsink/vmafsink/vmaf"

// EngineCheck returns a check that builds (and at once closes) a scoring
// context for a model with base's engine and extra metrics, so a model
// the engine cannot compute is refused before it is queued rather than at
// the frame boundary. Building a context starts no workers.
func EngineCheck(base vmaf.Config) func(*vmaf.Model) error {
	return func(m *vmaf.Model) error {
		cfg := vmaf.Config{Models: []*vmaf.Model{m}, Features: base.Features, Engine: base.Engine}
		c, err := vmaf.NewContext(cfg)
		if err != nil {
			return err
		}
		c.Close()
		return nil
	}
}
