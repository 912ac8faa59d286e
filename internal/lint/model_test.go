package lint

import (
	"reflect"
	"testing"
)

// TestRateFields holds rateFields to Rates: one entry per field, in field
// order, each name reaching its own field, so a rate added to one and not
// the other fails here.
func TestRateFields(t *testing.T) {
	typ := reflect.TypeFor[Rates]()
	if len(rateFields) != typ.NumField() {
		t.Fatalf("%d rate names for %d fields of Rates", len(rateFields), typ.NumField())
	}
	var r Rates
	for i, f := range rateFields {
		t.Run(f.name, func(t *testing.T) {
			want := reflect.ValueOf(&r).Elem().Field(i).Addr().Interface().(*Num)
			if got := f.of(&r); got != want {
				t.Errorf("reaches another field than Rates.%s", typ.Field(i).Name)
			}
			if got := r.field(f.name); got != want {
				t.Errorf("field(%q) reaches another field than Rates.%s", f.name, typ.Field(i).Name)
			}
		})
	}
	if r.field("queue") != nil || r.field("") != nil {
		t.Error("field returns a rate for a name that is not one")
	}
}
