package web

import (
	"bytes"
	"log/slog"
	"net/url"
	"strconv"
	"sync/atomic"

	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"github.com/prometheus/client_golang/prometheus"
	"net/http"
	"strings"
	"sync"

	"github.com/labstack/echo/v4"
)

// The catalog never changes while the server runs, so a successful GET answer is the same every
// time it is asked for: pages and API answers are kept in memory once rendered, with their
// gzip body and an ETag, and later requests are served from there. The cache is bounded in
// bytes; when full it drops entries at random, which costs little for a read-only site.

// maxCacheBytes bounds the memory the response cache holds (bodies plus gzip bodies).
const maxCacheBytes = 128 << 20

// maxCachedBody is the largest answer kept: bigger ones are rare and cheap to skip.
const maxCachedBody = 2 << 20

type cachedResponse struct {
	header http.Header // everything but the per-request headers (request id, cookie)
	body   []byte
	gz     []byte // nil when compression does not pay
	etag   string
	// for the fast path, which bypasses echo
	lang     string // "ko" or "en" for pages, which set the language cookie
	requests prometheus.Counter
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
	size := len(r.body) + len(r.gz) + len(key)
	rc.mu.Lock()
	defer rc.mu.Unlock()
	for k, old := range rc.items { // map iteration order is random: evict arbitrary entries
		if rc.bytes+size <= maxCacheBytes {
			break
		}
		rc.bytes -= len(old.body) + len(old.gz) + len(k)
		delete(rc.items, k)
	}
	if _, ok := rc.items[key]; !ok {
		rc.items[key] = r
		rc.bytes += size
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

// cached serves GET and HEAD answers from the response cache, filling it on a miss.
func (s *Server) cached(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		req := c.Request()
		if req.Method != http.MethodGet && req.Method != http.MethodHead {
			return next(c)
		}
		key := cacheKey(req)
		hit := s.cache.get(key)
		if hit == nil {
			// Rendering takes the catalog's connections: a FIFO queue in front of it keeps the
			// waiting fair (database/sql hands free connections to an arbitrary waiter, which
			// under load left some requests waiting for seconds).
			select {
			case s.renders <- struct{}{}:
			case <-req.Context().Done():
				return req.Context().Err()
			}
			defer func() { <-s.renders }()
			resp := c.Response()
			orig := resp.Writer
			rec := &recorder{header: http.Header{}, status: http.StatusOK}
			for k, v := range orig.Header() { // headers set by earlier middleware
				rec.header[k] = v
			}
			resp.Writer = rec
			err := next(c)
			resp.Writer = orig
			if err != nil {
				return err
			}
			cr := &cachedResponse{header: rec.header, body: rec.body.Bytes()}
			if rec.status != http.StatusOK || len(cr.body) > maxCachedBody || !cacheable(req.URL.RawQuery) {
				copyHeader(orig.Header(), rec.header)
				orig.WriteHeader(rec.status)
				_, err := orig.Write(cr.body)
				return err
			}
			finish(cr)
			if lang := c.Param("lang"); validLang(lang) {
				cr.lang = lang
			}
			cr.requests = s.metrics.requests.WithLabelValues(c.Path(), "200")
			s.cache.put(key, cr)
			hit = cr
		}
		return serveCached(c, hit)
	}
}

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
	cr.header.Set("ETag", cr.etag)
	if cr.header.Get("Cache-Control") == "" {
		cr.header.Set("Cache-Control", "public, max-age=300")
	}
	cr.header.Set("Vary", "Accept-Encoding")
	if len(cr.body) >= 1024 {
		var buf bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&buf, gzip.DefaultCompression)
		zw.Write(cr.body)
		zw.Close()
		if buf.Len() < len(cr.body)*9/10 {
			cr.gz = buf.Bytes()
		}
	}
}

func serveCached(c echo.Context, cr *cachedResponse) error {
	cr.write(c.Response(), c.Request())
	return nil
}

// write sends a kept answer: 304 when the client has it, the gzip body when it accepts one.
// Headers already on w (request id, cookie) stay. It returns the status sent.
func (cr *cachedResponse) write(w http.ResponseWriter, r *http.Request) int {
	h := w.Header()
	for k, v := range cr.header {
		h[k] = v
	}
	status, body := http.StatusOK, cr.body
	switch {
	case r.Header.Get("If-None-Match") != "" && strings.Contains(r.Header.Get("If-None-Match"), cr.etag):
		status, body = http.StatusNotModified, nil
	case cr.gz != nil && strings.Contains(r.Header.Get("Accept-Encoding"), "gzip"):
		h["Content-Encoding"] = []string{"gzip"}
		body = cr.gz
	}
	if body != nil {
		h["Content-Length"] = []string{strconv.Itoa(len(body))}
	}
	w.WriteHeader(status)
	if r.Method == http.MethodGet && body != nil {
		w.Write(body)
	}
	return status
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

// cacheKeys are the query parameters that change an answer. A URL with any other parameter is
// answered but not kept, so made-up parameters cannot fill the cache with copies.
var cacheKeys = map[string]bool{"q": true, "cause": true, "symptom": true, "component": true, "factor": true,
	"org": true, "year": true, "page": true, "sort": true, "from": true, "lang": true, "page_size": true}

func cacheable(rawQuery string) bool {
	if rawQuery == "" {
		return true
	}
	q, err := url.ParseQuery(rawQuery)
	if err != nil {
		return false
	}
	for k := range q {
		if !cacheKeys[k] {
			return false
		}
	}
	return true
}

func cacheKey(r *http.Request) string {
	return r.Host + r.URL.Path + "?" + r.URL.RawQuery
}

// requestSeq numbers requests answered on the fast path, for their request ids.
var requestSeq atomic.Uint64

// serveFast answers a page straight from the response cache, without echo's routing and
// middleware: the headers were fixed when the page was first rendered, and only the request id
// and the language cookie are per request. It reports whether it answered.
func (s *Server) serveFast(w http.ResponseWriter, r *http.Request) bool {
	if (r.Method != http.MethodGet && r.Method != http.MethodHead) || len(r.URL.Path) < 4 || r.URL.Path[0] != '/' ||
		r.URL.Path[3] != '/' || !validLang(r.URL.Path[1:3]) {
		return false
	}
	cr := s.cache.get(cacheKey(r))
	if cr == nil {
		return false
	}
	h := w.Header()
	h[echo.HeaderXRequestID] = []string{s.idPrefix + strconv.FormatUint(requestSeq.Add(1), 36)}
	if cr.lang != "" && !strings.Contains(r.Header.Get("Cookie"), langCookie+"="+cr.lang) {
		h["Set-Cookie"] = []string{langCookies[cr.lang]}
	}
	status := cr.write(w, r)
	if status == http.StatusOK {
		cr.requests.Inc() // the duration histogram is for rendered answers: this one took microseconds
	}
	if s.log.Enabled(r.Context(), slog.LevelDebug) {
		s.log.LogAttrs(r.Context(), slog.LevelDebug, "request", slog.String("request_id", h.Get(echo.HeaderXRequestID)),
			slog.String("method", r.Method), slog.String("path", r.URL.Path), slog.Int("status", status), slog.Bool("cached", true))
	}
	return true
}
