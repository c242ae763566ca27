# A trie of Unicode characters for the word segmenters (_segment_zh, _segment_th): nodes are numbers
# (0 is the root); the edge (node, character) -> child lives in one open-addressing hash table
# keyed by (node + 1) << 21 | code point. Each node has a byte of flags and a double for the caller.

cimport cython
from libc.stdint cimport int32_t, uint8_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, free, malloc, realloc


@cython.final
cdef class CharTrie:
    cdef uint64_t *slot_key  # 0 = empty slot
    cdef int32_t *slot_node
    cdef int bits
    cdef uint64_t n_slots
    cdef uint8_t *flags
    cdef double *weight
    cdef int32_t n_nodes, cap_nodes

    def __cinit__(self):
        self.bits = 20
        self.n_slots = 1 << 20
        self.cap_nodes = 1 << 18
        self.slot_key = <uint64_t *>calloc(self.n_slots, sizeof(uint64_t))
        self.slot_node = <int32_t *>malloc(self.n_slots * sizeof(int32_t))
        self.flags = <uint8_t *>calloc(self.cap_nodes, sizeof(uint8_t))
        self.weight = <double *>calloc(self.cap_nodes, sizeof(double))
        if not (self.slot_key and self.slot_node and self.flags and self.weight):
            raise MemoryError()
        self.n_nodes = 1  # the root

    def __dealloc__(self):
        free(self.slot_key)
        free(self.slot_node)
        free(self.flags)
        free(self.weight)

    cdef inline uint64_t slot(self, uint64_t key) noexcept nogil:
        return (key * <uint64_t>0x9E3779B97F4A7C15) >> (64 - self.bits)

    cdef inline int32_t find(self, int32_t node, uint32_t c) noexcept nogil:
        """The child of ``node`` for character ``c``, or -1."""
        cdef uint64_t key = (<uint64_t>(node + 1) << 21) | c
        cdef uint64_t mask = self.n_slots - 1
        cdef uint64_t i = self.slot(key)
        while self.slot_key[i]:
            if self.slot_key[i] == key:
                return self.slot_node[i]
            i = (i + 1) & mask
        return -1

    cdef int32_t add(self, str word) except -1:
        """The node of ``word``, made with the nodes of its prefixes where missing."""
        cdef int32_t node = 0
        cdef Py_ssize_t k
        for k in range(len(word)):
            node = self.child(node, <uint32_t>word[k])
        return node

    cdef int32_t child(self, int32_t node, uint32_t c) except -1:
        """The child of ``node`` for character ``c``, made if missing."""
        cdef int32_t found = self.find(node, c)
        cdef uint64_t key, mask, i
        if found >= 0:
            return found
        if 2 * <uint64_t>(self.n_nodes + 1) > self.n_slots:
            self.grow()
        if self.n_nodes == self.cap_nodes:
            self.cap_nodes *= 2
            self.flags = <uint8_t *>realloc(self.flags, self.cap_nodes * sizeof(uint8_t))
            self.weight = <double *>realloc(self.weight, self.cap_nodes * sizeof(double))
            if not (self.flags and self.weight):
                raise MemoryError()
        key = (<uint64_t>(node + 1) << 21) | c
        mask = self.n_slots - 1
        i = self.slot(key)
        while self.slot_key[i]:
            i = (i + 1) & mask
        self.slot_key[i] = key
        self.slot_node[i] = self.n_nodes
        self.flags[self.n_nodes] = 0
        self.weight[self.n_nodes] = 0.0
        self.n_nodes += 1
        return self.n_nodes - 1

    cdef int grow(self) except -1:
        cdef uint64_t *old_key = self.slot_key
        cdef int32_t *old_node = self.slot_node
        cdef uint64_t old_n = self.n_slots, j, i, mask
        self.n_slots = old_n * 2
        self.bits += 1
        self.slot_key = <uint64_t *>calloc(self.n_slots, sizeof(uint64_t))
        self.slot_node = <int32_t *>malloc(self.n_slots * sizeof(int32_t))
        if not (self.slot_key and self.slot_node):
            raise MemoryError()
        mask = self.n_slots - 1
        for j in range(old_n):
            if old_key[j]:
                i = self.slot(old_key[j])
                while self.slot_key[i]:
                    i = (i + 1) & mask
                self.slot_key[i] = old_key[j]
                self.slot_node[i] = old_node[j]
        free(old_key)
        free(old_node)
        return 0
