package element

/*
#include <stdlib.h>
*/
import "C"

import "unsafe"

// cStrings converts each name a messenger sets on its messages to C once,
// not once a message: a frame message names every metric, at the frame
// rate. Used by one goroutine (the Runner's publishing one); free
// releases the strings when the run is over.
type cStrings struct {
	m map[string]*C.char
}

func (cs *cStrings) cname(s string) *C.char {
	c, ok := cs.m[s]
	if !ok {
		if cs.m == nil {
			cs.m = map[string]*C.char{}
		}
		c = C.CString(s)
		cs.m[s] = c
	}
	return c
}

func (cs *cStrings) free() {
	for _, c := range cs.m {
		C.free(unsafe.Pointer(c))
	}
	cs.m = nil
}
