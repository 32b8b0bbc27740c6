// Package static embeds the site's stylesheets, scripts and images and names each by a hash of
// its content, so they can be cached forever: a change gives a new name.
package static

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"io/fs"
	"mime"
	"path"
	"strings"
)

//go:embed css js img
var files embed.FS

// Asset is one embedded file, ready to serve.
type Asset struct {
	Name        string // hashed name, e.g. css/site.1a2b3c4d5e.css
	Body        []byte
	Gzip        []byte // nil when compression does not pay
	ContentType string
	ETag        string
}

var (
	byLogical = map[string]*Asset{}
	byHashed  = map[string]*Asset{}
)

func init() {
	err := fs.WalkDir(files, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		body, err := files.ReadFile(p)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(body)
		h := hex.EncodeToString(sum[:])[:10]
		ext := path.Ext(p)
		a := &Asset{
			Name:        strings.TrimSuffix(p, ext) + "." + h + ext,
			Body:        body,
			ContentType: mime.TypeByExtension(ext),
			ETag:        `"` + h + `"`,
		}
		if ext == ".svg" {
			a.ContentType = "image/svg+xml"
		}
		if ext != ".png" && ext != ".ico" {
			var buf bytes.Buffer
			zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
			zw.Write(body)
			zw.Close()
			if buf.Len() < len(body) {
				a.Gzip = buf.Bytes()
			}
		}
		byLogical[p] = a
		byHashed[a.Name] = a
		return nil
	})
	if err != nil {
		panic("static: " + err.Error()) // the embedded tree is fixed at build time
	}
}

// Path returns the URL path of an asset by its logical name, e.g. Path("css/site.css").
func Path(name string) string {
	if a, ok := byLogical[name]; ok {
		return "/static/" + a.Name
	}
	return "/static/" + name
}

// Lookup finds an asset by its hashed name (the part of the URL after /static/).
func Lookup(hashed string) (*Asset, bool) {
	a, ok := byHashed[hashed]
	return a, ok
}
