// Package ring provides a fixed-capacity FIFO over a circular buffer.
// Its storage is allocated once, by New: pushing and popping never
// allocate, which the engine's and the pipeline's per-frame paths rely
// on. A Buffer is not safe for concurrent use.
package ring

import "fmt"

// Buffer is a FIFO of at most Cap elements.
type Buffer[T any] struct {
	buf  []T
	head int // index in buf of the oldest element
	n    int
}

// New makes an empty buffer holding up to capacity elements; a negative
// capacity counts as 0.
func New[T any](capacity int) *Buffer[T] {
	return &Buffer[T]{buf: make([]T, max(capacity, 0))}
}

// Len is the number of elements held.
func (b *Buffer[T]) Len() int { return b.n }

// Cap is the most elements the buffer holds.
func (b *Buffer[T]) Cap() int { return len(b.buf) }

// Full reports whether a Push would be refused.
func (b *Buffer[T]) Full() bool { return b.n == len(b.buf) }

// slot maps the i-th element from the oldest to its index in buf.
func (b *Buffer[T]) slot(i int) int {
	i += b.head
	if i >= len(b.buf) {
		i -= len(b.buf)
	}
	return i
}

// Push appends v as the newest element. It stores nothing and reports
// false when the buffer is full.
func (b *Buffer[T]) Push(v T) bool {
	if b.Full() {
		return false
	}
	b.buf[b.slot(b.n)] = v
	b.n++
	return true
}

// PushDropOldest appends v, first removing the oldest element when the
// buffer is full; it returns the element dropped and whether one was.
// With capacity 0, v itself is the one dropped.
func (b *Buffer[T]) PushDropOldest(v T) (dropped T, ok bool) {
	if len(b.buf) == 0 {
		return v, true
	}
	if b.Full() {
		dropped, ok = b.Pop()
	}
	b.Push(v)
	return dropped, ok
}

// Pop removes and returns the oldest element, or reports false when the
// buffer is empty. The slot is cleared, so the buffer keeps nothing it
// no longer holds reachable.
func (b *Buffer[T]) Pop() (v T, ok bool) {
	if b.n == 0 {
		return v, false
	}
	var zero T
	v, b.buf[b.head] = b.buf[b.head], zero
	b.head = b.slot(1)
	b.n--
	return v, true
}

// At returns the i-th element from the oldest (0) to the newest (Len-1),
// to read or change in place. It panics when i is out of that range, as
// indexing a slice does.
func (b *Buffer[T]) At(i int) *T {
	if i < 0 || i >= b.n {
		panic(fmt.Sprintf("ring: index %d out of range [0:%d]", i, b.n))
	}
	return &b.buf[b.slot(i)]
}

// Front is the oldest element, At(0).
func (b *Buffer[T]) Front() *T { return b.At(0) }

// Back is the newest element, At(Len-1).
func (b *Buffer[T]) Back() *T { return b.At(b.n - 1) }

// Clear removes every element.
func (b *Buffer[T]) Clear() {
	clear(b.buf)
	b.head, b.n = 0, 0
}
