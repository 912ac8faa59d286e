package lint

import (
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	hcljson "github.com/hashicorp/hcl/v2/json"
)

// optionalAttributes finds what PartialContent does, native syntax and
// JSON alike.
func TestOptionalAttributes(t *testing.T) {
	native, diags := hclsyntax.ParseConfig([]byte("variable \"a\" {\n  type = number\n  description = \"x\"\n}\nvariable \"b\" {}\n"), "v.tf", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	json, diags := hcljson.Parse([]byte(`{"variable": {"a": {"type": "number", "description": "x"}, "b": {}}}`), "v.tf.json")
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	for _, f := range []*hcl.File{native, json} {
		content, _, _ := f.Body.PartialContent(fileSchema)
		for _, b := range content.Blocks {
			want, _, _ := b.Body.PartialContent(variableSchema)
			got := optionalAttributes(b.Body, variableSchema, nil)
			if len(got) != len(want.Attributes) {
				t.Errorf("%s %s: %d attributes, want %d", b.DefRange.Filename, b.Labels[0], len(got), len(want.Attributes))
			}
			for name, a := range want.Attributes {
				if g := got[name]; g == nil || g.Expr.Range() != a.Expr.Range() || g.Range != a.Range {
					t.Errorf("%s %s: attribute %s %+v, want %+v", b.DefRange.Filename, b.Labels[0], name, g, a)
				}
			}
		}
	}
}
