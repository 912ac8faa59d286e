// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint

import (
	"bytes"
	"cmp"
	"compress/gzip"
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"math/big"
	"net"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/apparentlymart/go-cidr/cidr"
	"github.com/google/uuid"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/gocty"
	"golang.org/x/text/encoding/ianaindex"
)

// The encoding, hashing, network and time functions of Terraform's
// internal/lang/funcs (encoding.go, crypto.go, cidr.go, datetime.go), which
// are not in cty's stdlib, and OpenTofu's base64gunzip, urldecode and
// cidrcontains.

// stringFunc is a function of one string to a string.
func stringFunc(f func(string) (string, error)) function.Function {
	return function.New(&function.Spec{
		Params: []function.Parameter{{Name: "str", Type: cty.String}},
		Type:   function.StaticReturnType(cty.String),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			out, err := f(args[0].AsString())
			if err != nil {
				return cty.NilVal, function.NewArgError(0, err)
			}
			return cty.StringVal(out), nil
		},
	})
}

var base64EncodeFunc = stringFunc(func(s string) (string, error) {
	return base64.StdEncoding.EncodeToString([]byte(s)), nil
})

// base64DecodeFunc fails, as Terraform's does, when the decoded bytes are
// not UTF-8: a Terraform string is text.
var base64DecodeFunc = stringFunc(func(s string) (string, error) {
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return "", fmt.Errorf("failed to decode base64 data %q", s)
	}
	if !utf8.Valid(b) {
		return "", errors.New("the result of decoding the provided string is not valid UTF-8")
	}
	return string(b), nil
})

var base64GzipFunc = stringFunc(func(s string) (string, error) {
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	if _, err := gz.Write([]byte(s)); err != nil {
		return "", err
	}
	// Terraform flushes before closing, which adds an empty block: flush
	// too, for the same bytes.
	if err := gz.Flush(); err != nil {
		return "", err
	}
	if err := gz.Close(); err != nil {
		return "", err
	}
	return base64.StdEncoding.EncodeToString(buf.Bytes()), nil
})

// base64GunzipFunc is OpenTofu's base64gunzip, base64gzip's inverse.
var base64GunzipFunc = stringFunc(func(s string) (string, error) {
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return "", fmt.Errorf("failed to decode base64 data %q", s)
	}
	gz, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return "", fmt.Errorf("not gzip data: %w", err)
	}
	out, err := io.ReadAll(gz)
	if err != nil {
		return "", fmt.Errorf("failed to gunzip: %w", err)
	}
	return string(out), nil
})

// urlEncodeFunc escapes as a query string does: spaces become "+".
var urlEncodeFunc = stringFunc(func(s string) (string, error) { return url.QueryEscape(s), nil })

// urlDecodeFunc is OpenTofu's urldecode, urlencode's inverse.
var urlDecodeFunc = stringFunc(url.QueryUnescape)

// hashFunc is a hash of a string's UTF-8 bytes, in hex or base64 as
// Terraform writes each: md5, sha1, sha256, sha512 in hex, base64sha256
// and base64sha512 in standard base64.
func hashFunc(h func() hash.Hash, enc func([]byte) string) function.Function {
	return stringFunc(func(s string) (string, error) { return hashBytes(h, enc, []byte(s)), nil })
}

func hashBytes(h func() hash.Hash, enc func([]byte) string, b []byte) string {
	sum := h()
	sum.Write(b)
	return enc(sum.Sum(nil))
}

var (
	md5Func          = hashFunc(md5.New, hex.EncodeToString)
	sha1Func         = hashFunc(sha1.New, hex.EncodeToString)
	sha256Func       = hashFunc(sha256.New, hex.EncodeToString)
	sha512Func       = hashFunc(sha512.New, hex.EncodeToString)
	base64SHA256Func = hashFunc(sha256.New, base64.StdEncoding.EncodeToString)
	base64SHA512Func = hashFunc(sha512.New, base64.StdEncoding.EncodeToString)
)

// textEncodeBase64Func is textencodebase64(string, encoding): the string
// in an IANA character encoding, then base64.
var textEncodeBase64Func = function.New(&function.Spec{
	Params: []function.Parameter{{Name: "string", Type: cty.String}, {Name: "encoding", Type: cty.String}},
	Type:   function.StaticReturnType(cty.String),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		enc, err := ianaindex.IANA.Encoding(args[1].AsString())
		if err != nil || enc == nil {
			return cty.NilVal, function.NewArgErrorf(1, "%q is not a supported IANA encoding name or alias", args[1].AsString())
		}
		b, err := enc.NewEncoder().Bytes([]byte(args[0].AsString()))
		if err != nil {
			return cty.NilVal, function.NewArgErrorf(0, "the given string contains characters that cannot be represented in %s", args[1].AsString())
		}
		return cty.StringVal(base64.StdEncoding.EncodeToString(b)), nil
	},
})

// textDecodeBase64Func is textdecodebase64(source, encoding), the inverse.
var textDecodeBase64Func = function.New(&function.Spec{
	Params: []function.Parameter{{Name: "source", Type: cty.String}, {Name: "encoding", Type: cty.String}},
	Type:   function.StaticReturnType(cty.String),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		enc, err := ianaindex.IANA.Encoding(args[1].AsString())
		if err != nil || enc == nil {
			return cty.NilVal, function.NewArgErrorf(1, "%q is not a supported IANA encoding name or alias", args[1].AsString())
		}
		raw, err := base64.StdEncoding.DecodeString(args[0].AsString())
		if err != nil {
			return cty.NilVal, function.NewArgErrorf(0, "invalid base64: %s", err)
		}
		b, err := enc.NewDecoder().Bytes(raw)
		if err != nil || bytes.ContainsRune(b, utf8.RuneError) {
			return cty.NilVal, function.NewArgErrorf(0, "the given string contains symbols that are not defined for %s", args[1].AsString())
		}
		return cty.StringVal(string(b)), nil
	},
})

// uuidV5Func is uuidv5(namespace, name): a name-based UUID, the namespace
// "dns", "url", "oid", "x500" or a UUID.
var uuidV5Func = function.New(&function.Spec{
	Params: []function.Parameter{{Name: "namespace", Type: cty.String}, {Name: "name", Type: cty.String}},
	Type:   function.StaticReturnType(cty.String),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		ns, ok := map[string]uuid.UUID{"dns": uuid.NameSpaceDNS, "url": uuid.NameSpaceURL, "oid": uuid.NameSpaceOID, "x500": uuid.NameSpaceX500}[args[0].AsString()]
		if !ok {
			var err error
			if ns, err = uuid.Parse(args[0].AsString()); err != nil {
				return cty.NilVal, function.NewArgErrorf(0, "uuidv5() doesn't support namespace %s (%v)", args[0].AsString(), err)
			}
		}
		return cty.StringVal(uuid.NewSHA1(ns, []byte(args[1].AsString())).String()), nil
	},
})

// timeCmpFunc is timecmp(a, b): -1, 0 or 1 as RFC 3339 timestamp a is
// before, at or after b.
var timeCmpFunc = function.New(&function.Spec{
	Params: []function.Parameter{{Name: "timestamp_a", Type: cty.String}, {Name: "timestamp_b", Type: cty.String}},
	Type:   function.StaticReturnType(cty.Number),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		var ts [2]time.Time
		for i := range ts {
			t, err := time.Parse(time.RFC3339, args[i].AsString())
			if err != nil {
				return cty.NilVal, function.NewArgErrorf(i, "not a valid RFC3339 timestamp: %s", err)
			}
			ts[i] = t
		}
		return cty.NumberIntVal(int64(ts[0].Compare(ts[1]))), nil
	},
})

// parseCIDR is net.ParseCIDR that also takes IPv4 octets with leading
// zeros, read as decimal, as Terraform's does ("010.0.0.0/8" is 10.0.0.0/8).
func parseCIDR(s string) (*net.IPNet, error) {
	if addr, bits, ok := strings.Cut(s, "/"); ok {
		s = decimalOctets(addr) + "/" + bits
	}
	_, network, err := net.ParseCIDR(s)
	if err != nil {
		return nil, fmt.Errorf("invalid CIDR expression: %w", err)
	}
	return network, nil
}

// decimalOctets is an IPv4 address without its octets' leading zeros,
// which Go's parsers reject; any other string as it is.
func decimalOctets(addr string) string {
	if strings.Contains(addr, ":") {
		return addr
	}
	octets := strings.Split(addr, ".")
	for i, o := range octets {
		if t := strings.TrimLeft(o, "0"); t != o {
			octets[i] = cmp.Or(t, "0")
		}
	}
	return strings.Join(octets, ".")
}

// cidrContainsFunc is OpenTofu's cidrcontains(containing_prefix,
// contained_ip_or_prefix): whether an address, or all of a prefix, lies in
// a prefix of the same family.
var cidrContainsFunc = function.New(&function.Spec{
	Params: []function.Parameter{{Name: "containing_prefix", Type: cty.String}, {Name: "contained_ip_or_prefix", Type: cty.String}},
	Type:   function.StaticReturnType(cty.Bool),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		outer, err := parseCIDR(args[0].AsString())
		if err != nil {
			return cty.NilVal, function.NewArgError(0, err)
		}
		first := net.ParseIP(decimalOctets(args[1].AsString()))
		last := first
		if first == nil {
			inner, err := parseCIDR(args[1].AsString())
			if err != nil {
				return cty.NilVal, function.NewArgErrorf(1, "invalid IP address or prefix: %s", args[1].AsString())
			}
			first, last = cidr.AddressRange(inner)
		}
		if (first.To4() == nil) != (outer.IP.To4() == nil) {
			return cty.NilVal, fmt.Errorf("address family mismatch: %s vs. %s", args[0].AsString(), args[1].AsString())
		}
		return cty.BoolVal(outer.Contains(first) && outer.Contains(last)), nil
	},
})

// bigInt is a whole cty number as a big.Int.
func bigInt(v cty.Value) (*big.Int, error) {
	var n *big.Int
	err := gocty.FromCtyValue(v, &n)
	return n, err
}

// cidrHostFunc is cidrhost(prefix, hostnum): the address of host number
// hostnum in prefix, counting from the end when negative.
var cidrHostFunc = function.New(&function.Spec{
	Params: []function.Parameter{{Name: "prefix", Type: cty.String}, {Name: "hostnum", Type: cty.Number}},
	Type:   function.StaticReturnType(cty.String),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		n, err := bigInt(args[1])
		if err != nil {
			return cty.NilVal, function.NewArgError(1, err)
		}
		network, err := parseCIDR(args[0].AsString())
		if err != nil {
			return cty.NilVal, function.NewArgError(0, err)
		}
		ip, err := cidr.HostBig(network, n)
		if err != nil {
			return cty.NilVal, err
		}
		return cty.StringVal(ip.String()), nil
	},
})

// cidrNetmaskFunc is cidrnetmask(prefix): an IPv4 prefix's netmask in
// dotted-decimal form.
var cidrNetmaskFunc = function.New(&function.Spec{
	Params: []function.Parameter{{Name: "prefix", Type: cty.String}},
	Type:   function.StaticReturnType(cty.String),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		network, err := parseCIDR(args[0].AsString())
		if err != nil {
			return cty.NilVal, function.NewArgError(0, err)
		}
		if network.IP.To4() == nil {
			return cty.NilVal, fmt.Errorf("IPv6 addresses cannot have a netmask: %s", args[0].AsString())
		}
		return cty.StringVal(net.IP(network.Mask).String()), nil
	},
})

// cidrSubnetFunc is cidrsubnet(prefix, newbits, netnum): subnet number
// netnum of prefix lengthened by newbits bits; cidrsubnet("10.0.0.0/16",
// 8, 2) is "10.0.2.0/24".
var cidrSubnetFunc = function.New(&function.Spec{
	Params: []function.Parameter{{Name: "prefix", Type: cty.String}, {Name: "newbits", Type: cty.Number}, {Name: "netnum", Type: cty.Number}},
	Type:   function.StaticReturnType(cty.String),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		var newbits int
		if err := gocty.FromCtyValue(args[1], &newbits); err != nil {
			return cty.NilVal, function.NewArgError(1, err)
		}
		n, err := bigInt(args[2])
		if err != nil {
			return cty.NilVal, function.NewArgError(2, err)
		}
		network, err := parseCIDR(args[0].AsString())
		if err != nil {
			return cty.NilVal, function.NewArgError(0, err)
		}
		subnet, err := cidr.SubnetBig(network, newbits, n)
		if err != nil {
			return cty.NilVal, err
		}
		return cty.StringVal(subnet.String()), nil
	},
})

// cidrSubnetsFunc is cidrsubnets(prefix, newbits...): consecutive subnets
// of prefix, each newbits longer, each aligned after the one before.
var cidrSubnetsFunc = function.New(&function.Spec{
	Params:   []function.Parameter{{Name: "prefix", Type: cty.String}},
	VarParam: &function.Parameter{Name: "newbits", Type: cty.Number},
	Type:     function.StaticReturnType(cty.List(cty.String)),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		network, err := parseCIDR(args[0].AsString())
		if err != nil {
			return cty.NilVal, function.NewArgError(0, err)
		}
		if len(args) == 1 {
			return cty.ListValEmpty(cty.String), nil
		}
		start, _ := network.Mask.Size()
		addrBits := len(network.IP) * 8
		lengths := make([]int, len(args)-1)
		for i, a := range args[1:] {
			var newbits int
			if err := gocty.FromCtyValue(a, &newbits); err != nil {
				return cty.NilVal, function.NewArgError(i+1, err)
			}
			switch {
			case newbits < 1:
				return cty.NilVal, function.NewArgErrorf(i+1, "must extend prefix by at least one bit")
			case newbits > 32:
				return cty.NilVal, function.NewArgErrorf(i+1, "may not extend prefix by more than 32 bits")
			case start+newbits > addrBits:
				return cty.NilVal, function.NewArgErrorf(i+1, "would extend prefix to %d bits, which is too long for a %d-bit address", start+newbits, addrBits)
			}
			lengths[i] = start + newbits
		}
		// Start just before the prefix, so that the first NextSubnet is
		// the prefix's first subnet.
		current, _ := cidr.PreviousSubnet(network, lengths[0])
		out := make([]cty.Value, len(lengths))
		for i, l := range lengths {
			next, rollover := cidr.NextSubnet(current, l)
			if rollover || !network.Contains(next.IP) {
				return cty.NilVal, function.NewArgErrorf(i+1, "not enough remaining address space for a subnet with a prefix of %d bits after %s", l, current)
			}
			current = next
			out[i] = cty.StringVal(current.String())
		}
		return cty.ListVal(out), nil
	},
})
