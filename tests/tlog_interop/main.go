// tlog-interop checks a camelog tlog directory with Go's
// golang.org/x/mod/sumdb/tlog and sumdb/note, an implementation camelog
// did not write, and makes proofs of its own for camelog to check.
//
//	tlog-interop PUBKEY DIR verify VKEY
//	tlog-interop PUBKEY DIR inclusion PROOF
//	tlog-interop PUBKEY DIR consistency OLD-CHECKPOINT PROOF
//	tlog-interop PUBKEY DIR prove-inclusion INDEX
//	tlog-interop PUBKEY DIR prove-consistency OLD-SIZE
//
// PUBKEY is a minisign public key file; DIR the log directory. x/mod
// names tiles tile/8/L/N and entry bundles tile/8/data/N; C2SP names them
// tile/L/N and tile/entries/N, which is all the reader below changes.
package main

import (
	"bufio"
	"bytes"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"
)

const height = 8

func fail(format string, a ...interface{}) {
	fmt.Fprintf(os.Stderr, "tlog-interop: "+format+"\n", a...)
	os.Exit(1)
}

// readPubkey reads the Ed25519 key of a minisign public key file.
func readPubkey(path string) ed25519.PublicKey {
	data, err := os.ReadFile(path)
	if err != nil {
		fail("%v", err)
	}
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	raw, err := base64.StdEncoding.DecodeString(lines[len(lines)-1])
	if err != nil || len(raw) != 42 || raw[0] != 'E' || raw[1] != 'd' {
		fail("%s: not a minisign public key", path)
	}
	return ed25519.PublicKey(raw[10:])
}

type checkpoint struct {
	origin string
	tree   tlog.Tree
}

// openCheckpoint verifies the note with sumdb/note and reads its body
// (origin, size, root) as C2SP tlog-checkpoint lays it out.
func openCheckpoint(path string, key ed25519.PublicKey) checkpoint {
	msg, err := os.ReadFile(path)
	if err != nil {
		fail("%v", err)
	}
	origin := string(msg[:bytes.IndexByte(msg, '\n')])
	vkey, err := note.NewEd25519VerifierKey(origin, key)
	if err != nil {
		fail("%v", err)
	}
	v, err := note.NewVerifier(vkey)
	if err != nil {
		fail("%v", err)
	}
	n, err := note.Open(msg, note.VerifierList(v))
	if err != nil {
		fail("%s: sumdb/note refuses the note: %v", path, err)
	}
	body := strings.Split(n.Text, "\n")
	if len(body) < 4 || body[0] != origin {
		fail("%s: not a checkpoint", path)
	}
	size, err := strconv.ParseInt(body[1], 10, 64)
	if err != nil {
		fail("%s: bad size: %v", path, err)
	}
	h, err := tlog.ParseHash(body[2])
	if err != nil {
		fail("%s: bad root: %v", path, err)
	}
	return checkpoint{origin, tlog.Tree{N: size, Hash: h}}
}

// c2spPath maps x/mod's tile path to C2SP's.
func c2spPath(t tlog.Tile) string {
	p := strings.TrimPrefix(t.Path(), fmt.Sprintf("tile/%d/", height))
	p = strings.Replace(p, "data/", "entries/", 1)
	return "tile/" + p
}

type dirTiles struct{ dir string }

func (d dirTiles) Height() int { return height }

func (d dirTiles) ReadTiles(tiles []tlog.Tile) ([][]byte, error) {
	out := make([][]byte, len(tiles))
	for i, t := range tiles {
		data, err := os.ReadFile(filepath.Join(d.dir, c2spPath(t)))
		if err != nil && t.W < 1<<height {
			// A partial tile may be gone once its full tile exists.
			full := t
			full.W = 1 << height
			data, err = os.ReadFile(filepath.Join(d.dir, c2spPath(full)))
			if err == nil && len(data) == (1<<height)*tlog.HashSize {
				data = data[:t.W*tlog.HashSize]
			}
		}
		if err != nil {
			return nil, err
		}
		out[i] = data
	}
	return out, nil
}

func (d dirTiles) SaveTiles([]tlog.Tile, [][]byte) {}

// entries reads the bundles of a tree of n entries.
func entries(dir string, n int64) [][]byte {
	var all [][]byte
	for b := int64(0); b*256 < n; b++ {
		w := n - b*256
		if w > 256 {
			w = 256
		}
		t := tlog.Tile{H: height, L: -1, N: b, W: int(w)}
		data, err := os.ReadFile(filepath.Join(dir, c2spPath(t)))
		if err != nil {
			t.W = 256
			data, err = os.ReadFile(filepath.Join(dir, c2spPath(t)))
		}
		if err != nil {
			fail("%v", err)
		}
		for i := int64(0); i < w; i++ {
			if len(data) < 2 {
				fail("bundle %d: short", b)
			}
			l := int(binary.BigEndian.Uint16(data))
			if len(data) < 2+l {
				fail("bundle %d: entry cut short", b)
			}
			all = append(all, data[2:2+l])
			data = data[2+l:]
		}
	}
	return all
}

// readProof parses camelog's proof text.
func readProof(path string) (map[string]int64, []tlog.Hash, tlog.Hash) {
	f, err := os.Open(path)
	if err != nil {
		fail("%v", err)
	}
	defer f.Close()
	kv := map[string]int64{}
	var hashes []tlog.Hash
	var leaf tlog.Hash
	sc := bufio.NewScanner(f)
	first := true
	for sc.Scan() {
		line := sc.Text()
		if first {
			first = false
			continue
		}
		if k, v, ok := strings.Cut(line, " "); ok {
			if k == "leaf" {
				leaf, err = tlog.ParseHash(v)
			} else {
				kv[k], err = strconv.ParseInt(v, 10, 64)
			}
			if err != nil {
				fail("%s: %v", path, err)
			}
			continue
		}
		h, err := tlog.ParseHash(line)
		if err != nil {
			fail("%s: %v", path, err)
		}
		hashes = append(hashes, h)
	}
	return kv, hashes, leaf
}

func main() {
	if len(os.Args) < 4 {
		fail("usage: tlog-interop PUBKEY DIR verb ...")
	}
	key := readPubkey(os.Args[1])
	dir := os.Args[2]
	cp := openCheckpoint(filepath.Join(dir, "checkpoint"), key)
	hr := tlog.TileHashReader(cp.tree, dirTiles{dir})
	args := os.Args[4:]
	switch os.Args[3] {
	case "verify":
		vkey, _ := note.NewEd25519VerifierKey(cp.origin, key)
		if len(args) != 1 || args[0] != vkey {
			fail("camelog's verifier key is not sumdb/note's %s", vkey)
		}
		fmt.Printf("go: note signature by %s verified\n", cp.origin)
		if cp.tree.N == 0 {
			empty := sha256.Sum256(nil)
			if cp.tree.Hash != tlog.Hash(empty) {
				fail("the empty tree's root is not SHA-256 of nothing")
			}
			fmt.Println("go: empty tree, root SHA-256 of nothing")
			return
		}
		th, err := tlog.TreeHash(cp.tree.N, hr)
		if err != nil {
			fail("tiles: %v", err)
		}
		if th != cp.tree.Hash {
			fail("root %v, checkpoint says %v", th, cp.tree.Hash)
		}
		fmt.Printf("go: root of %d entries recomputed from the tiles\n",
			cp.tree.N)
		// Every entry of a small tree, a sample of a large one (each read
		// goes through the tiles up to the root).
		es := entries(dir, cp.tree.N)
		checked := 0
		for i, e := range es {
			if len(es) > 2000 && i%997 != 0 && i != len(es)-1 {
				continue
			}
			checked++
			h, err := hr.ReadHashes([]int64{tlog.StoredHashIndex(0, int64(i))})
			if err != nil {
				fail("%v", err)
			}
			if h[0] != tlog.RecordHash(e) {
				fail("entry %d does not hash to its tile hash", i)
			}
		}
		fmt.Printf("go: %d of %d entries hash to their tile hashes\n",
			checked, len(es))
	case "inclusion":
		kv, hashes, leaf := readProof(args[0])
		if kv["size"] != cp.tree.N {
			fail("proof size %d, checkpoint %d", kv["size"], cp.tree.N)
		}
		err := tlog.CheckRecord(hashes, cp.tree.N, cp.tree.Hash, kv["index"], leaf)
		if err != nil {
			fail("%s: %v", args[0], err)
		}
		fmt.Printf("go: inclusion of entry %d in %d entries checks\n",
			kv["index"], cp.tree.N)
	case "consistency":
		old := openCheckpoint(args[0], key)
		kv, hashes, _ := readProof(args[1])
		if kv["old"] != old.tree.N || kv["size"] != cp.tree.N {
			fail("proof sizes do not match the checkpoints")
		}
		err := tlog.CheckTree(hashes, cp.tree.N, cp.tree.Hash, old.tree.N, old.tree.Hash)
		if err != nil {
			fail("%s: %v", args[1], err)
		}
		fmt.Printf("go: %d entries extend %d\n", cp.tree.N, old.tree.N)
	case "prove-inclusion":
		i, _ := strconv.ParseInt(args[0], 10, 64)
		p, err := tlog.ProveRecord(cp.tree.N, i, hr)
		if err != nil {
			fail("%v", err)
		}
		h, err := hr.ReadHashes([]int64{tlog.StoredHashIndex(0, i)})
		if err != nil {
			fail("%v", err)
		}
		fmt.Printf("camelog-tlog inclusion\nsize %d\nindex %d\nleaf %s\n",
			cp.tree.N, i, h[0])
		for _, x := range p {
			fmt.Println(x)
		}
	case "prove-consistency":
		m, _ := strconv.ParseInt(args[0], 10, 64)
		p, err := tlog.ProveTree(cp.tree.N, m, hr)
		if err != nil {
			fail("%v", err)
		}
		fmt.Printf("camelog-tlog consistency\nold %d\nsize %d\n", m, cp.tree.N)
		for _, x := range p {
			fmt.Println(x)
		}
	default:
		fail("unknown verb %s", os.Args[3])
	}
}
