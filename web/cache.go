package web

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus"
)

// The catalog never changes while the server runs, so a successful GET answer is the same every
// time it is asked for: pages and API answers are kept in memory once rendered, with their
// gzip body and an ETag, and later requests are served from there. The cache is bounded in
// bytes; when full it drops entries at random, which costs little for a read-only site.

// maxCacheBytes bounds the memory the response cache holds: bodies, gzip bodies, keys and the
// bookkeeping of each entry.
const maxCacheBytes = 48 << 20

// entryOverhead is what an entry costs besides its bytes: the map slot, the struct, the header
// map and its strings. Measured with testing.AllocsPerRun-style accounting on real pages and
// rounded up.
const entryOverhead = 1536

// maxCachedBody is the largest answer kept: bigger ones are rare and cheap to skip.
const maxCachedBody = 2 << 20

// A page that compresses is kept gzipped only: browsers and proxies ask for gzip, and the
// whole site's pages fit in the cache that way (about 11 MB gzipped against 47 MB plain for
// the 689-case catalog). A client that asks for the plain body gets it decompressed once and
// kept beside the gzip body, counted against the same bound.
type cachedResponse struct {
	header   http.Header            // everything but the per-request headers (request id)
	body     []byte                 // the plain body, when it does not compress
	plain    atomic.Pointer[[]byte] // the plain body of a gzipped answer, once asked for
	gz       []byte                 // nil when compression does not pay
	etag     string                 // of the plain body
	gzETag   string                 // of gz: each encoding has its own
	requests prometheus.Counter
	cache    *responseCache // where it is kept, to count a plain body added later
	key      string
	counted  int // bytes counted for it in cache.bytes, under cache.mu
}

func (cr *cachedResponse) size(key string) int {
	n := entryOverhead + len(cr.body) + len(cr.gz) + 2*len(key)
	for k, vs := range cr.header {
		n += len(k)
		for _, v := range vs {
			n += len(v) + 16
		}
	}
	return n
}

// plainBody is the body for a client that does not take gzip.
func (cr *cachedResponse) plainBody() []byte {
	if cr.gz == nil {
		return cr.body
	}
	if p := cr.plain.Load(); p != nil {
		return *p
	}
	zr, err := gzip.NewReader(bytes.NewReader(cr.gz))
	if err != nil {
		return nil // cannot happen: we wrote it
	}
	b, _ := io.ReadAll(zr)
	if cr.cache != nil && cr.cache.grow(cr, len(b)) {
		cr.plain.Store(&b)
	}
	return b
}

type responseCache struct {
	mu    sync.RWMutex
	items map[string]*cachedResponse
	bytes int
}

func newResponseCache() *responseCache {
	return &responseCache{items: map[string]*cachedResponse{}}
}

func (rc *responseCache) get(key string) *cachedResponse {
	rc.mu.RLock()
	defer rc.mu.RUnlock()
	return rc.items[key]
}

func (rc *responseCache) put(key string, r *cachedResponse) {
	if r.gz != nil {
		r.body = nil
		r.plain.Store(nil) // kept gzipped only
	}
	size := r.size(key)
	rc.mu.Lock()
	defer rc.mu.Unlock()
	if _, ok := rc.items[key]; ok {
		return
	}
	rc.makeRoom(size)
	r.cache, r.key, r.counted = rc, key, size
	rc.items[key] = r
	rc.bytes += size
}

// grow counts n more bytes for an entry still in the cache, making room for them. It reports
// whether the entry may keep them.
func (rc *responseCache) grow(r *cachedResponse, n int) bool {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	if rc.items[r.key] != r || r.plain.Load() != nil || n > maxCacheBytes/8 {
		return false
	}
	r.counted += n
	rc.bytes += n
	rc.makeRoom(0)
	return rc.items[r.key] == r
}

// makeRoom drops entries until size more bytes fit; map iteration order is random, so the
// entries dropped are arbitrary. The caller holds mu.
func (rc *responseCache) makeRoom(size int) {
	for k, old := range rc.items {
		if rc.bytes+size <= maxCacheBytes {
			break
		}
		rc.bytes -= old.counted
		delete(rc.items, k)
	}
}

// recorder captures a handler's answer instead of sending it.
type recorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (r *recorder) Header() http.Header         { return r.header }
func (r *recorder) WriteHeader(code int)        { r.status = code }
func (r *recorder) Write(b []byte) (int, error) { return r.body.Write(b) }

// cached serves GET answers from the response cache, filling it on a miss. A miss is rendered
// in one of a few slots, in arrival order; the slot is given back as soon as the answer is in
// memory, before it is written, so a client that reads slowly holds nothing but its socket.
func (s *Server) cached(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		req := c.Request()
		if req.Method != http.MethodGet {
			return next(c)
		}
		key, ok := cacheKey(req)
		if !ok {
			return next(c)
		}
		if hit := s.cache.get(key); hit != nil {
			hit.write(c.Response(), req)
			s.noteHit()
			return nil
		}
		if !s.allowRender(c) {
			return s.tooManyRenders(c)
		}
		resp := c.Response()
		orig := resp.Writer
		rec := &recorder{header: http.Header{}, status: http.StatusOK}
		copyHeader(rec.header, orig.Header()) // headers set by earlier middleware
		resp.Writer = rec
		var cr *cachedResponse
		err := s.inSlot(req.Context(), func() error {
			if err := next(c); err != nil {
				return err
			}
			cr = &cachedResponse{header: rec.header, body: rec.body.Bytes()}
			if rec.status == http.StatusOK && len(cr.body) <= maxCachedBody {
				finish(cr) // compressing is part of the render's cost
			}
			return nil
		})
		resp.Writer = orig
		// The handler "sent" its answer to the recorder; the real one is still to be written.
		resp.Committed, resp.Size = false, 0
		if err != nil {
			return err
		}
		if rec.status != http.StatusOK || len(cr.body) > maxCachedBody {
			copyHeader(orig.Header(), rec.header)
			resp.WriteHeader(rec.status)
			_, err := resp.Write(cr.body)
			return err
		}
		cr.requests = s.metrics.requests.WithLabelValues(c.Path(), "200")
		s.cache.put(key, cr)
		cr.write(resp, req)
		return nil
	}
}

// inSlot runs f in a render slot, waiting its turn in order; it gives up when ctx ends.
//
// A render is CPU-bound and Go does not preempt it for a goroutine waiting on the network for
// up to 10 ms, so a steady stream of renders starves cached answers, which need microseconds.
// While cached answers are being served, a slot therefore rests after each render for
// restFactor times as long as the render took: renders get at most a quarter of each slot's
// time, which leaves cached answers more than half of the CPU once the collector's share of the
// renders' garbage is paid (bench/edge.sh measures it).
func (s *Server) inSlot(ctx context.Context, f func() error) error {
	select {
	case s.renders <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-s.renders }()
	start := time.Now()
	err := f()
	if s.servingHits(start) {
		time.Sleep(min(restFactor*time.Since(start), maxRest))
	}
	return err
}

// noteHit records that a cached answer was served now. It writes the clock at most once a
// millisecond, so hits on many cores do not contend for the same cache line.
func (s *Server) noteHit() {
	now := time.Now().UnixNano()
	if now-s.lastHit.Load() > int64(time.Millisecond) {
		s.lastHit.Store(now)
	}
}

// restFactor is how long a slot rests after a render while cached answers are being served, in
// multiples of the render's time.
const restFactor = 3

// maxRest bounds a slot's rest, so that one slow answer cannot hold a slot idle for long.
const maxRest = 100 * time.Millisecond

// servingHits reports whether cached answers were served since t.
func (s *Server) servingHits(t time.Time) bool { return s.lastHit.Load() >= t.UnixNano() }

// finish computes the ETag and the gzip body of a response about to be cached.
func finish(cr *cachedResponse) {
	if et := cr.header.Get("ETag"); et != "" {
		cr.etag = et
	} else {
		cr.etag = etagOf(cr.body)
	}
	cr.header.Del("Content-Length")
	cr.header.Del("Set-Cookie")
	cr.header.Del(echo.HeaderXRequestID) // each request keeps its own id
	cr.header.Del("ETag")                // set per encoding when written
	if cr.header.Get("Cache-Control") == "" {
		cr.header.Set("Cache-Control", pageCacheControl)
	}
	cr.header.Set("Vary", "Accept-Encoding")
	if len(cr.body) >= 1024 {
		var buf bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&buf, gzip.DefaultCompression)
		zw.Write(cr.body)
		zw.Close()
		if buf.Len() < len(cr.body)*9/10 {
			cr.gz = buf.Bytes()
			cr.gzETag = gzipETag(cr.etag)
			plain := cr.body
			cr.plain.Store(&plain) // until it is kept: put drops it
		}
	}
}

// pageCacheControl lets browsers keep a page five minutes and shared caches an hour, and lets
// a shared cache serve a stale copy for a day while it fetches the new one: the catalog only
// changes with a deploy.
const pageCacheControl = "public, max-age=300, s-maxage=3600, stale-while-revalidate=86400"

// write sends a kept answer: 304 when the client has this encoding's ETag, the gzip body when
// the client accepts it. Headers already on w (request id) stay. It returns the status sent.
func (cr *cachedResponse) write(w http.ResponseWriter, r *http.Request) int {
	h := w.Header()
	for k, v := range cr.header {
		h[k] = v
	}
	gz := cr.gz != nil && acceptsGzip(r.Header.Get("Accept-Encoding"))
	etag := cr.etag
	if gz {
		etag = cr.gzETag
	}
	h["Etag"] = []string{etag} // the canonical form of ETag
	if etagMatches(r.Header.Get("If-None-Match"), etag) {
		w.WriteHeader(http.StatusNotModified)
		return http.StatusNotModified
	}
	var body []byte
	if gz {
		body = cr.gz
		h["Content-Encoding"] = []string{"gzip"}
	} else {
		body = cr.plainBody()
	}
	h["Content-Length"] = []string{strconv.Itoa(len(body))}
	w.WriteHeader(http.StatusOK)
	w.Write(body)
	return http.StatusOK
}

// etagOf is a strong ETag for a body.
func etagOf(b []byte) string {
	sum := sha256.Sum256(b)
	return `"` + hex.EncodeToString(sum[:12]) + `"`
}

func copyHeader(dst, src http.Header) {
	for k, v := range src {
		dst[k] = v
	}
}

// requestSeq numbers requests answered on the fast path, for their request ids.
var requestSeq atomic.Uint64

// serveFast answers a page straight from the response cache, without echo's routing and
// middleware: the headers were fixed when the page was first rendered, and only the request id
// and the language cookie are per request. It reports whether it answered.
func (s *Server) serveFast(w http.ResponseWriter, r *http.Request) bool {
	if r.Method != http.MethodGet || len(r.URL.Path) < 4 || r.URL.Path[0] != '/' ||
		r.URL.Path[3] != '/' || !validLang(r.URL.Path[1:3]) {
		return false
	}
	key, ok := cacheKey(r)
	if !ok {
		return false
	}
	cr := s.cache.get(key)
	if cr == nil {
		return false
	}
	h := w.Header()
	h[echo.HeaderXRequestID] = []string{s.idPrefix + strconv.FormatUint(requestSeq.Add(1), 36)}
	status := cr.write(w, r)
	s.noteHit()
	if status == http.StatusOK {
		cr.requests.Inc() // the duration histogram is for rendered answers: this one took microseconds
	}
	if s.log.Enabled(r.Context(), slog.LevelDebug) {
		s.log.LogAttrs(r.Context(), slog.LevelDebug, "request", slog.String("request_id", h.Get(echo.HeaderXRequestID)),
			slog.String("method", r.Method), slog.String("path", r.URL.Path), slog.Int("status", status), slog.Bool("cached", true))
	}
	return true
}
