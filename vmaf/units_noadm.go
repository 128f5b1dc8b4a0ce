//go:build !wip_adm

package vmaf

import "errors"

func newADMUnit(w, h, bpc int, gainLimit float64) (unit, error) {
	return nil, errors.New("vmaf: the ADM extractor is not built yet")
}
