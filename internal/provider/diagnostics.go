package provider

import (
	"errors"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
)

// addCapacityError turns an error from internal/capacity into a diagnostic
// on the attribute it names, so that every data source reports bad input
// and overflow the same way.
func addCapacityError(diags *diag.Diagnostics, err error) {
	var in *capacity.InputError
	if errors.As(err, &in) {
		diags.AddAttributeError(path.Root(in.Field), "Invalid "+in.Field, in.Error()+".")
		return
	}
	diags.AddError("Capacity calculation failed", err.Error())
}
