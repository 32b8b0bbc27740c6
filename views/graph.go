package views

import (
	"math"
	"slices"
	"sort"
	"strconv"

	"incidentlib/internal/catalog"
)

// A graph is drawn as columns, one per kind (and one for cases in the small graph of a
// listing), with a circle per value sized by its number of cases and a curve per pair of values
// that occur together, thicker the more cases share them. Columns keep the picture readable at
// any size, where a force layout would tangle 60 nodes, and need no JavaScript.

// GraphNode is one circle: a value (or a case) with its place.
type GraphNode struct {
	catalog.Term
	Count   int
	X, Y, R float64
	Href    string
	Right   bool // label to the right of the circle
}

// GraphEdge is one curve between two nodes.
type GraphEdge struct {
	D       string // SVG path
	Width   float64
	Opacity float64
	Count   int
	A, B    string // labels, for the title
}

// GraphColumn is the heading of one column.
type GraphColumn struct {
	Kind catalog.Kind
	X    float64
}

// Graph is a laid-out picture.
type Graph struct {
	W, H    float64
	Nodes   []GraphNode
	Edges   []GraphEdge
	Columns []GraphColumn
	Small   bool
}

// graphKinds are the graph's columns: causes and components first, as the main values of a
// case, then the other taxonomy kinds in their order.
var graphKinds = func() []catalog.Kind {
	out := []catalog.Kind{catalog.KindCause, catalog.KindComponent}
	for _, k := range catalog.VocabKinds {
		if !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	return out
}()

// caseColumn is the kind of the graph's column of cases, between components and the rest.
const caseColumn catalog.Kind = "case"

// LayoutGraph lays out the values of spread (at most perKind of each kind, most frequent first)
// and the links between them; cards, when given, become a column of cases.
func LayoutGraph(lang catalog.Lang, spread map[catalog.Kind][]catalog.Facet, links []catalog.Link, cards []catalog.Card, perKind int, small bool) Graph {
	kinds := graphKinds
	colW, rowH, top := 250.0, 30.0, 56.0
	if small {
		colW, rowH, top = 185, 24, 40
	}
	if len(cards) > 0 {
		kinds = slices.Insert(slices.Clone(graphKinds), 2, caseColumn)
	}
	g := Graph{Small: small}
	pos := map[catalog.Term]*GraphNode{}
	maxCount := 1
	for _, k := range graphKinds {
		for _, f := range spread[k] {
			maxCount = max(maxCount, f.Count)
		}
	}
	rows := 0
	var nodes []GraphNode
	x := 24.0
	fontPx := 13.0
	if small {
		fontPx = 12
	}
	for _, kind := range kinds {
		g.Columns = append(g.Columns, GraphColumn{Kind: kind, X: x})
		var col []GraphNode
		if kind == caseColumn {
			for _, c := range cards {
				col = append(col, GraphNode{Term: catalog.Term{Kind: caseColumn, Slug: c.ID, Label: c.ID}, Count: 1, R: 4, Href: CaseURL(lang, c.ID)})
			}
		} else {
			fs := spread[kind]
			if perKind > 0 && len(fs) > perKind {
				fs = fs[:perKind]
			}
			for _, f := range fs {
				r := 4 + 12*math.Sqrt(float64(f.Count)/float64(maxCount))
				if small {
					r = 3 + 8*math.Sqrt(float64(f.Count)/float64(maxCount))
				}
				col = append(col, GraphNode{Term: f.Term, Count: f.Count, R: r, Href: TopicURL(lang, f.Term)})
			}
		}
		widest := 0.0
		for i := range col {
			col[i].X, col[i].Y = x+12, top+float64(i)*rowH
			col[i].Right = true
			widest = max(widest, labelWidth(col[i].Label+" "+strconv.Itoa(col[i].Count), fontPx))
		}
		rows = max(rows, len(col))
		nodes = append(nodes, col...)
		// the next column starts after this one's longest label, so no label is cut or covered
		x += max(colW, widest+60)
	}
	g.W = x // the last column ends after its longest label
	g.H = top + float64(max(rows, 1))*rowH
	g.Nodes = nodes
	for i := range g.Nodes {
		n := &g.Nodes[i]
		pos[catalog.Term{Kind: n.Kind, Slug: n.Slug}] = n
	}
	maxLink := 1
	for _, l := range links {
		maxLink = max(maxLink, l.Count)
	}
	addEdge := func(a, b *GraphNode, count, maxC int) {
		if a.X > b.X {
			a, b = b, a
		}
		mx := (a.X + b.X) / 2
		d := "M" + f1(a.X) + " " + f1(a.Y) + " C" + f1(mx) + " " + f1(a.Y) + " " + f1(mx) + " " + f1(b.Y) + " " + f1(b.X) + " " + f1(b.Y)
		w := 0.6 + 4*float64(count)/float64(maxC)
		g.Edges = append(g.Edges, GraphEdge{D: d, Width: w, Opacity: 0.15 + 0.45*float64(count)/float64(maxC), Count: count, A: a.Label, B: b.Label})
	}
	colOf := map[catalog.Kind]int{}
	for i, k := range kinds {
		colOf[k] = i
	}
	drawn := 0
	for _, l := range links { // most frequent first
		a, b := pos[catalog.Term{Kind: l.A.Kind, Slug: l.A.Slug}], pos[catalog.Term{Kind: l.B.Kind, Slug: l.B.Slug}]
		if a == nil || b == nil {
			continue
		}
		// Only neighbouring columns are joined: lines across a column would hide its labels.
		// The tables under the graph list every pairing.
		if d := colOf[l.A.Kind] - colOf[l.B.Kind]; d != 1 && d != -1 {
			continue
		}
		addEdge(a, b, l.Count, maxLink)
		if drawn++; drawn == maxEdges {
			break
		}
	}
	for _, c := range cards {
		cn := pos[catalog.Term{Kind: caseColumn, Slug: c.ID}]
		for _, t := range c.Tags {
			if d := colOf[t.Kind] - colOf[caseColumn]; d != 1 && d != -1 {
				continue
			}
			if n := pos[catalog.Term{Kind: t.Kind, Slug: t.Slug}]; n != nil && cn != nil {
				addEdge(cn, n, 1, 2)
			}
		}
	}
	// thin edges first so thick ones draw on top
	sort.SliceStable(g.Edges, func(i, j int) bool { return g.Edges[i].Width < g.Edges[j].Width })
	return g
}

// maxEdges bounds the lines drawn, keeping the strongest: past it the picture turns grey.
const maxEdges = 160

// shortLabel keeps a small graph's labels inside their column; the full label is the node's
// title.
func shortLabel(label string, small bool) string {
	if small {
		return clip(label, 20)
	}
	return label
}

func f1(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }

// LabelX is where a node's label starts.
func (n GraphNode) LabelX() string { return f1(n.X + n.R + 5) }

func top8(cards []catalog.Card) []catalog.Card {
	if len(cards) > 8 {
		return cards[:8]
	}
	return cards
}

// partners lists the values most often found with t, with counts.
func partners(t catalog.Term, links []catalog.Link, n int) string {
	var out []string
	for _, l := range links { // links come most frequent first
		var other catalog.Term
		switch {
		case l.A.Kind == t.Kind && l.A.Slug == t.Slug:
			other = l.B
		case l.B.Kind == t.Kind && l.B.Slug == t.Slug:
			other = l.A
		default:
			continue
		}
		out = append(out, other.Label+" ("+strconv.Itoa(l.Count)+")")
		if len(out) == n {
			break
		}
	}
	if len(out) == 0 {
		return "–"
	}
	s := out[0]
	for _, o := range out[1:] {
		s += ", " + o
	}
	return s
}

// labelWidth estimates how wide a label is drawn, in pixels: Hangul and other wide characters
// take about an em, capitals and digits about 0.68 em, other letters about 0.56 em.
func labelWidth(s string, fontPx float64) float64 {
	w := 0.0
	for _, r := range s {
		switch {
		case r >= 0x1100 && (r <= 0x115f || r >= 0x2e80 && r <= 0xa4cf || r >= 0xac00 && r <= 0xd7a3 || r >= 0xff00 && r <= 0xff60):
			w += 1.0
		case r >= 'A' && r <= 'Z' || r >= '0' && r <= '9':
			w += 0.68
		default:
			w += 0.56
		}
	}
	return w * fontPx
}
