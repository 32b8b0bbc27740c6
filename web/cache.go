package web

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
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
const maxCacheBytes = 256 << 20

// maxCachedBody is the largest answer kept: bigger ones are rare and cheap to skip.
const maxCachedBody = 2 << 20

type cachedResponse struct {
	header http.Header
	body   []byte
	gz     []byte // nil when compression does not pay
	etag   string
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
		key := req.Host + req.URL.Path + "?" + req.URL.RawQuery
		hit := s.cache.get(key)
		if hit == nil {
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
			if rec.status != http.StatusOK || len(cr.body) > maxCachedBody {
				copyHeader(orig.Header(), rec.header)
				orig.WriteHeader(rec.status)
				_, err := orig.Write(cr.body)
				return err
			}
			finish(cr)
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
		sum := sha256.Sum256(cr.body)
		cr.etag = `"` + hex.EncodeToString(sum[:12]) + `"`
	}
	cr.header.Del("Content-Length")
	cr.header.Del("Set-Cookie")
	cr.header.Del(echo.HeaderXRequestID) // each request keeps its own id
	if len(cr.body) >= 1024 {
		var buf bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
		zw.Write(cr.body)
		zw.Close()
		if buf.Len() < len(cr.body)*9/10 {
			cr.gz = buf.Bytes()
		}
	}
}

func serveCached(c echo.Context, cr *cachedResponse) error {
	w := c.Response()
	h := w.Header()
	copyHeader(h, cr.header)
	h.Set("ETag", cr.etag)
	if h.Get("Cache-Control") == "" {
		h.Set("Cache-Control", "public, max-age=300")
	}
	h.Set("Vary", "Accept-Encoding")
	if inm := c.Request().Header.Get("If-None-Match"); inm != "" && strings.Contains(inm, cr.etag) {
		return c.NoContent(http.StatusNotModified)
	}
	body := cr.body
	if cr.gz != nil && strings.Contains(c.Request().Header.Get("Accept-Encoding"), "gzip") {
		h.Set("Content-Encoding", "gzip")
		body = cr.gz
	}
	if c.Request().Method == http.MethodHead {
		return c.NoContent(http.StatusOK)
	}
	return c.Blob(http.StatusOK, cr.header.Get("Content-Type"), body)
}

func copyHeader(dst, src http.Header) {
	for k, v := range src {
		dst[k] = v
	}
}
