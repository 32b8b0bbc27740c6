package web

import (
	"bytes"
	"crypto/rand"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"
)

// maxBatch is the most JSON-RPC messages one POST to /mcp may carry. A batch is one request to
// the rate limit, so a large one would let a client do many times its share of work.
const maxBatch = 8

// serveJSONRPC hands an MCP POST to the SDK's handler, with three guards the SDK lacks: a body
// the client did not finish sending is the client's error (400, or 408 when it was too slow),
// batches over maxBatch are refused, and request ids come back exactly as sent. The SDK reads a
// numeric id as a 64-bit number, which changes 1.5, 1e20 and integers past 2^53; such ids are
// passed to it as strings no client can have chosen, and put back in the answer's id members
// alone.
func serveJSONRPC(c echo.Context, r *http.Request, h http.Handler) error {
	if r.Method != http.MethodPost {
		h.ServeHTTP(c.Response(), r)
		return nil
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return bodyError(err)
	}
	msgs, batch := splitBatch(body)
	if batch && len(msgs) > maxBatch {
		return jsonRPCError(c, http.StatusBadRequest, -32600, "too many messages in one batch: send at most "+strconv.Itoa(maxBatch))
	}
	ids := idSwap{prefix: "incidentlib-rpc-id-" + rand.Text() + "-", orig: map[string]json.RawMessage{}}
	for i, m := range msgs {
		msgs[i] = ids.swap(m)
	}
	if len(ids.orig) == 0 {
		r.Body = io.NopCloser(bytes.NewReader(body))
		h.ServeHTTP(c.Response(), r)
		return nil
	}
	if batch {
		parts := make([][]byte, len(msgs))
		for i, m := range msgs {
			parts[i] = m
		}
		body = append(append([]byte("["), bytes.Join(parts, []byte(","))...), ']')
	} else {
		body = msgs[0]
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	r.ContentLength = int64(len(body))
	rec := &recorder{header: http.Header{}, status: http.StatusOK}
	h.ServeHTTP(rec, r)
	copyHeader(c.Response().Header(), rec.header)
	c.Response().Header().Del("Content-Length")
	return c.Blob(rec.status, rec.header.Get("Content-Type"), ids.restore(rec.body.Bytes()))
}

// bodyError is the answer to a request body that could not be read: too large (413), sent too
// slowly (408), or cut off (400). All are the client's doing.
func bodyError(err error) error {
	var tooLarge *http.MaxBytesError
	var he *echo.HTTPError
	var ne net.Error
	switch {
	case errors.As(err, &he):
		return he
	case errors.As(err, &tooLarge):
		return echo.ErrStatusRequestEntityTooLarge
	case errors.As(err, &ne) && ne.Timeout():
		return echo.NewHTTPError(http.StatusRequestTimeout, "request body: sent too slowly").SetInternal(err)
	default:
		return inputErr("error.body_incomplete", "", nil)
	}
}

// idSwap stands in for ids that a 64-bit number would not keep exactly.
type idSwap struct {
	prefix string // random for each request, so no id a client sends can look like one
	orig   map[string]json.RawMessage
}

// swap replaces the message's id with a placeholder string when it needs one.
func (s *idSwap) swap(m json.RawMessage) json.RawMessage {
	var fields map[string]json.RawMessage
	if json.Unmarshal(m, &fields) != nil {
		return m
	}
	id, ok := fields["id"]
	if !ok || len(id) == 0 || id[0] == '"' || id[0] == 'n' || exactInt(string(id)) {
		return m
	}
	placeholder := s.prefix + strconv.Itoa(len(s.orig))
	s.orig[placeholder] = append(json.RawMessage(nil), id...)
	fields["id"], _ = json.Marshal(placeholder)
	out, err := json.Marshal(fields)
	if err != nil {
		return m
	}
	return out
}

// rpcResponse is a JSON-RPC response as the SDK writes it, member order kept.
type rpcResponse struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   json.RawMessage `json:"error,omitempty"`
}

// restore puts the original ids back into the answer: in each response's id member, and
// nowhere else, so a tool's text that happens to hold a placeholder stays as it is.
func (s *idSwap) restore(out []byte) []byte {
	var list []rpcResponse
	batch := len(bytes.TrimSpace(out)) > 0 && bytes.TrimSpace(out)[0] == '['
	if batch {
		if json.Unmarshal(out, &list) != nil {
			return out
		}
	} else {
		var one rpcResponse
		if json.Unmarshal(out, &one) != nil {
			return out
		}
		list = []rpcResponse{one}
	}
	for i, m := range list {
		var id string
		if json.Unmarshal(m.ID, &id) == nil {
			if raw, ok := s.orig[id]; ok {
				list[i].ID = raw
			}
		}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // the SDK's bytes as they were, but for the ids
	var v any = list[0]
	if batch {
		v = list
	}
	if enc.Encode(v) != nil {
		return out
	}
	return b.Bytes()
}

// splitBatch returns the messages of a body and whether it was a batch. A body that is not
// JSON comes back whole for the SDK to refuse.
func splitBatch(body []byte) ([]json.RawMessage, bool) {
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) > 0 && trimmed[0] == '[' {
		var msgs []json.RawMessage
		if json.Unmarshal(trimmed, &msgs) == nil {
			return msgs, true
		}
	}
	return []json.RawMessage{body}, false
}

// exactInt reports whether a JSON number is an integer that float64 and int64 both hold exactly.
func exactInt(n string) bool {
	if strings.ContainsAny(n, ".eE") {
		return false
	}
	v, err := strconv.ParseInt(n, 10, 64)
	return err == nil && v <= 1<<53 && v >= -(1<<53)
}

func jsonRPCError(c echo.Context, status, code int, msg string) error {
	return c.JSON(status, map[string]any{"jsonrpc": "2.0", "id": nil, "error": map[string]any{"code": code, "message": msg}})
}
