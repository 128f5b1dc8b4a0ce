package ring

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// contents lists b's elements, oldest first, through At.
func contents[T any](b *Buffer[T]) []T {
	out := []T{}
	for i := range b.Len() {
		out = append(out, *b.At(i))
	}
	return out
}

func TestBuffer(t *testing.T) {
	// An op is "+v" (Push), "!v" (PushDropOldest), "-" (Pop) or "c"
	// (Clear); out is what Pop returned or PushDropOldest dropped, -1
	// when it reported false; want is the contents afterwards.
	type step struct {
		op   byte
		v    int
		out  int
		want []int
	}
	for _, tc := range []struct {
		name     string
		capacity int
		steps    []step
	}{
		{"fifo", 3, []step{
			{'+', 1, 0, []int{1}},
			{'+', 2, 0, []int{1, 2}},
			{'-', 0, 1, []int{2}},
			{'+', 3, 0, []int{2, 3}},
			{'+', 4, 0, []int{2, 3, 4}},
			{'-', 0, 2, []int{3, 4}},
			{'-', 0, 3, []int{4}},
			{'-', 0, 4, []int{}},
			{'-', 0, -1, []int{}},
		}},
		{"full refuses", 2, []step{
			{'+', 1, 0, []int{1}},
			{'+', 2, 0, []int{1, 2}},
			{'+', 3, -1, []int{1, 2}},
			{'-', 0, 1, []int{2}},
			{'+', 3, 0, []int{2, 3}},
		}},
		{"drop oldest across the wrap", 3, []step{
			{'!', 1, -1, []int{1}},
			{'!', 2, -1, []int{1, 2}},
			{'!', 3, -1, []int{1, 2, 3}},
			{'!', 4, 1, []int{2, 3, 4}},
			{'!', 5, 2, []int{3, 4, 5}},
			{'-', 0, 3, []int{4, 5}},
			{'!', 6, -1, []int{4, 5, 6}},
			{'!', 7, 4, []int{5, 6, 7}},
		}},
		{"capacity 1", 1, []step{
			{'+', 1, 0, []int{1}},
			{'+', 2, -1, []int{1}},
			{'!', 3, 1, []int{3}},
			{'-', 0, 3, []int{}},
			{'+', 4, 0, []int{4}},
		}},
		{"capacity 0 drops what it is given", 0, []step{
			{'+', 1, -1, []int{}},
			{'!', 2, 2, []int{}},
			{'-', 0, -1, []int{}},
		}},
		{"negative capacity is 0", -4, []step{
			{'+', 1, -1, []int{}},
			{'!', 2, 2, []int{}},
		}},
		{"clear", 2, []step{
			{'+', 1, 0, []int{1}},
			{'-', 0, 1, []int{}},
			{'+', 2, 0, []int{2}},
			{'c', 0, 0, []int{}},
			{'+', 3, 0, []int{3}},
			{'+', 4, 0, []int{3, 4}},
			{'-', 0, 3, []int{4}},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := New[int](tc.capacity)
			if b.Cap() != max(tc.capacity, 0) {
				t.Fatalf("Cap() = %d", b.Cap())
			}
			for i, s := range tc.steps {
				out := 0
				switch s.op {
				case '+':
					if !b.Push(s.v) {
						out = -1
					}
				case '!':
					out = -1
					if d, ok := b.PushDropOldest(s.v); ok {
						out = d
					}
				case '-':
					out = -1
					if v, ok := b.Pop(); ok {
						out = v
					}
				case 'c':
					b.Clear()
				}
				got := contents(b)
				if out != s.out || !slices.Equal(got, s.want) || b.Len() != len(s.want) || b.Full() != (len(s.want) == b.Cap()) {
					t.Fatalf("step %d %c%d: out %d, contents %v (len %d, full %v); want %d, %v", i, s.op, s.v, out, got, b.Len(), b.Full(), s.out, s.want)
				}
				if len(got) > 0 && (*b.Front() != got[0] || *b.Back() != got[len(got)-1]) {
					t.Fatalf("step %d: Front %d, Back %d, contents %v", i, *b.Front(), *b.Back(), got)
				}
			}
		})
	}
}

// TestBufferMatchesSlice runs random operations against a plain slice
// holding the same elements.
func TestBufferMatchesSlice(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for capacity := range 6 {
		b := New[int](capacity)
		var model []int
		for step := range 2000 {
			v := step
			switch op := rng.IntN(4); op {
			case 0:
				ok := b.Push(v)
				if ok != (len(model) < capacity) {
					t.Fatalf("cap %d step %d: Push = %v with %d held", capacity, step, ok, len(model))
				}
				if ok {
					model = append(model, v)
				}
			case 1:
				d, ok := b.PushDropOldest(v)
				model = append(model, v)
				if len(model) > capacity {
					if !ok || d != model[0] {
						t.Fatalf("cap %d step %d: PushDropOldest dropped %d, %v; want %d", capacity, step, d, ok, model[0])
					}
					model = model[1:]
				} else if ok {
					t.Fatalf("cap %d step %d: PushDropOldest dropped %d from a buffer with room", capacity, step, d)
				}
			default:
				v, ok := b.Pop()
				if ok != (len(model) > 0) || (ok && v != model[0]) {
					t.Fatalf("cap %d step %d: Pop = %d, %v; model %v", capacity, step, v, ok, model)
				}
				if ok {
					model = model[1:]
				}
			}
			if got := contents(b); !slices.Equal(got, model) {
				t.Fatalf("cap %d step %d: contents %v, want %v", capacity, step, got, model)
			}
		}
	}
}

// TestBufferAtChangesInPlace: At and Front give the stored element, not
// a copy.
func TestBufferAtChangesInPlace(t *testing.T) {
	b := New[int](3)
	for v := range 5 {
		b.PushDropOldest(v)
	}
	*b.At(1) = 30
	*b.Front() += 20
	if got := contents(b); !slices.Equal(got, []int{22, 30, 4}) {
		t.Errorf("contents %v", got)
	}
}

// TestBufferPopClears: a popped or dropped element's slot no longer
// holds it, so a pointer it held can be collected.
func TestBufferPopClears(t *testing.T) {
	b := New[*int](2)
	x, y, z := new(int), new(int), new(int)
	b.Push(x)
	b.Push(y)
	b.Pop()
	b.PushDropOldest(z)
	b.PushDropOldest(z)
	for i, p := range b.buf {
		if p == x || p == y {
			t.Errorf("slot %d still holds a removed element", i)
		}
	}
}

func TestBufferAtOutOfRange(t *testing.T) {
	b := New[int](4)
	b.Push(1)
	for _, i := range []int{-1, 1, 4} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("At(%d) with one element did not panic", i)
				}
			}()
			b.At(i)
		}()
	}
}

// TestBufferNoAllocs: once made, a buffer never allocates, whatever it
// holds.
func TestBufferNoAllocs(t *testing.T) {
	type frame struct {
		planes [3][]byte
		pts    int64
	}
	b := New[frame](4)
	p := New[*frame](4)
	f := &frame{pts: 1}
	allocs := testing.AllocsPerRun(100, func() {
		for range 6 {
			b.PushDropOldest(*f)
			p.PushDropOldest(f)
		}
		b.At(1).pts++
		b.Pop()
		b.Push(*f)
		p.Pop()
		p.Push(f)
		_ = b.Len() + b.Cap() + p.Len()
		_ = b.Front().pts + b.Back().pts
		b.Clear()
	})
	if allocs != 0 {
		t.Errorf("%.1f allocations per run, want 0", allocs)
	}
}
