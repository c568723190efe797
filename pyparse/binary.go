package pyparse

import (
	"encoding/binary"
	"errors"
)

// The binary form of a Tree is its node array, 21 little-endian bytes a
// node, after a magic and the source length. It lets a cache skip parsing:
// decoding is a copy with bounds checks, rebuilding a summary from it is
// cheap Go code. The source itself is not stored.

const (
	treeMagic = "PLT1"
	nodeSize  = 21
)

// ErrCorrupt is returned for bytes that are not a tree of this source.
var ErrCorrupt = errors.New("corrupt tree encoding")

// AppendBinary appends the tree's binary form to b.
func (t *Tree) AppendBinary(b []byte) []byte {
	b = append(b, treeMagic...)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(t.Src)))
	b = binary.LittleEndian.AppendUint32(b, uint32(len(t.Nodes)))
	for i := range t.Nodes {
		n := &t.Nodes[i]
		b = binary.LittleEndian.AppendUint32(b, n.Start)
		b = binary.LittleEndian.AppendUint32(b, n.End)
		b = binary.LittleEndian.AppendUint32(b, uint32(n.Parent))
		b = binary.LittleEndian.AppendUint32(b, uint32(n.next))
		b = binary.LittleEndian.AppendUint16(b, uint16(n.Kind))
		b = binary.LittleEndian.AppendUint16(b, uint16(n.Field))
		b = append(b, n.flags)
	}
	return b
}

// DecodeTree rebuilds a tree of src from AppendBinary's output, checking
// every index and offset so that corrupt input is an error, never a panic
// later.
func DecodeTree(src, data []byte) (*Tree, error) {
	if len(data) < 12 || string(data[:4]) != treeMagic || int(binary.LittleEndian.Uint32(data[4:])) != len(src) {
		return nil, ErrCorrupt
	}
	count := int(binary.LittleEndian.Uint32(data[8:]))
	data = data[12:]
	if count <= 0 || len(data) != count*nodeSize {
		return nil, ErrCorrupt
	}
	nodes := make([]Node, count)
	for i := range nodes {
		d := data[i*nodeSize:]
		n := Node{
			Start:  binary.LittleEndian.Uint32(d),
			End:    binary.LittleEndian.Uint32(d[4:]),
			Parent: NodeID(int32(binary.LittleEndian.Uint32(d[8:]))),
			next:   NodeID(int32(binary.LittleEndian.Uint32(d[12:]))),
			Kind:   Kind(binary.LittleEndian.Uint16(d[16:])),
			Field:  Field(binary.LittleEndian.Uint16(d[18:])),
			flags:  d[20],
		}
		if n.Start > n.End || int(n.End) > len(src) || int(n.Parent) >= i || n.Parent < -1 ||
			(i > 0 && n.Parent < 0) || int(n.next) <= i || int(n.next) > count {
			return nil, ErrCorrupt
		}
		if p := n.Parent; p >= 0 && int(n.next) > int(nodes[p].next) {
			return nil, ErrCorrupt
		}
		nodes[i] = n
	}
	return &Tree{Src: src, Nodes: nodes}, nil
}
