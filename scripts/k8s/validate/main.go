// validate checks Kubernetes manifests offline, without a cluster or downloaded schemas.
//
// Every YAML document must decode strictly (no unknown or duplicate fields, the right types, parseable
// quantities) into its kind's Go type: k8s.io/api through client-go's scheme, plus the Prometheus Operator's
// ServiceMonitor and KEDA's ScaledObject. On top come the checks the API server makes that types cannot express
// (names, label syntax, selectors matching templates, mounts naming volumes, requests within limits), and,
// with -refs (default), that objects the set refers to are in the set: the Service account a pod runs as, the
// ConfigMaps it reads, the Role a binding grants, the workloads a Service or ServiceMonitor selects.
//
//	go run . [-refs=false] FILE... ('-' reads standard input)
package main

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	kedav1alpha1 "github.com/kedacore/keda/v2/apis/keda/v1alpha1"
	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	metavalidation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
	yamlutil "k8s.io/apimachinery/pkg/util/yaml"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
)

type object struct {
	where string // file:document
	kind  string
	name  string
	obj   runtime.Object
}

func (o object) String() string { return fmt.Sprintf("%s %s/%s", o.where, o.kind, o.name) }

func main() {
	refs := flag.Bool("refs", true, "check that objects the manifests refer to are among them")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: validate [-refs=false] FILE... ('-' for stdin)")
		os.Exit(2)
	}
	scheme := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{clientgoscheme.AddToScheme, monitoringv1.AddToScheme, kedav1alpha1.AddToScheme} {
		if err := add(scheme); err != nil {
			panic(err)
		}
	}
	decoder := serializer.NewCodecFactory(scheme, serializer.EnableStrict).UniversalDeserializer()

	var objects []object
	var problems []string
	for _, file := range flag.Args() {
		objs, errs := decodeFile(decoder, file)
		objects = append(objects, objs...)
		problems = append(problems, errs...)
	}
	for _, o := range objects {
		for _, p := range checkObject(o) {
			problems = append(problems, fmt.Sprintf("%s: %s", o, p))
		}
	}
	if *refs {
		problems = append(problems, checkReferences(objects)...)
	}
	kinds := map[string]int{}
	for _, o := range objects {
		kinds[o.kind]++
	}
	var summary []string
	for k, n := range kinds {
		summary = append(summary, fmt.Sprintf("%d %s", n, k))
	}
	sort.Strings(summary)
	if len(problems) > 0 {
		for _, p := range problems {
			fmt.Fprintln(os.Stderr, "invalid:", p)
		}
		fmt.Fprintf(os.Stderr, "%d problem(s) in %d object(s)\n", len(problems), len(objects))
		os.Exit(1)
	}
	if len(objects) == 0 {
		fmt.Fprintln(os.Stderr, "no Kubernetes objects found")
		os.Exit(1)
	}
	fmt.Printf("valid: %d object(s): %s\n", len(objects), strings.Join(summary, ", "))
}

func decodeFile(decoder runtime.Decoder, file string) ([]object, []string) {
	var in io.Reader = os.Stdin
	if file != "-" {
		f, err := os.Open(file)
		if err != nil {
			return nil, []string{err.Error()}
		}
		defer f.Close()
		in = f
	}
	reader := yamlutil.NewYAMLReader(bufio.NewReader(in))
	var objects []object
	var problems []string
	for i := 1; ; i++ {
		doc, err := reader.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		where := fmt.Sprintf("%s:%d", file, i)
		if err != nil {
			problems = append(problems, fmt.Sprintf("%s: %v", where, err))
			break
		}
		if isBlank(doc) {
			continue
		}
		obj, gvk, err := decoder.Decode(doc, nil, nil)
		if err != nil {
			// Strict decoding errors (unknown/duplicate fields) come with the object decoded anyway.
			problems = append(problems, fmt.Sprintf("%s: %v", where, err))
			if obj == nil {
				continue
			}
		}
		name := ""
		if m, ok := obj.(metav1.Object); ok {
			name = m.GetName()
		}
		objects = append(objects, object{where: where, kind: gvk.Kind, name: name, obj: obj})
	}
	return objects, problems
}

func isBlank(doc []byte) bool {
	for _, line := range bytes.Split(doc, []byte("\n")) {
		t := bytes.TrimSpace(line)
		if len(t) > 0 && t[0] != '#' && !bytes.Equal(t, []byte("---")) {
			return false
		}
	}
	return true
}

// checkObject makes the API server's checks that the Go types cannot express.
func checkObject(o object) []string {
	var errs field.ErrorList
	m, ok := o.obj.(metav1.Object)
	if !ok {
		return nil
	}
	meta := field.NewPath("metadata")
	if m.GetName() == "" {
		errs = append(errs, field.Required(meta.Child("name"), ""))
	}
	nameCheck := validation.IsDNS1123Subdomain
	switch o.obj.(type) {
	case *corev1.Service:
		nameCheck = validation.IsDNS1035Label
	case *batchv1.Job: // the name goes into the pods' job-name label
		nameCheck = validation.IsDNS1123Label
	}
	for _, msg := range nameCheck(m.GetName()) {
		errs = append(errs, field.Invalid(meta.Child("name"), m.GetName(), msg))
	}
	errs = append(errs, metavalidation.ValidateLabels(m.GetLabels(), meta.Child("labels"))...)

	switch x := o.obj.(type) {
	case *appsv1.Deployment:
		errs = append(errs, checkSelector(x.Spec.Selector, x.Spec.Template.Labels, field.NewPath("spec", "selector"))...)
		errs = append(errs, checkPod(&x.Spec.Template, field.NewPath("spec", "template"))...)
	case *appsv1.StatefulSet:
		errs = append(errs, checkSelector(x.Spec.Selector, x.Spec.Template.Labels, field.NewPath("spec", "selector"))...)
		errs = append(errs, checkPod(&x.Spec.Template, field.NewPath("spec", "template"))...)
	case *batchv1.Job:
		p := field.NewPath("spec", "template")
		errs = append(errs, checkPod(&x.Spec.Template, p)...)
		rp := x.Spec.Template.Spec.RestartPolicy
		if rp != corev1.RestartPolicyNever && rp != corev1.RestartPolicyOnFailure {
			errs = append(errs, field.NotSupported(p.Child("spec", "restartPolicy"), rp, []string{"Never", "OnFailure"}))
		}
		if x.Spec.PodFailurePolicy != nil && rp != corev1.RestartPolicyNever {
			errs = append(errs, field.Invalid(p.Child("spec", "restartPolicy"), rp, "only Never is supported with podFailurePolicy"))
		}
	case *corev1.Service:
		names := map[string]bool{}
		for i, port := range x.Spec.Ports {
			pp := field.NewPath("spec", "ports").Index(i)
			if len(x.Spec.Ports) > 1 && port.Name == "" {
				errs = append(errs, field.Required(pp.Child("name"), "ports of a multi-port Service need names"))
			}
			if names[port.Name] {
				errs = append(errs, field.Duplicate(pp.Child("name"), port.Name))
			}
			names[port.Name] = true
		}
	case *rbacv1.Role:
		for i, r := range x.Rules {
			if len(r.Verbs) == 0 {
				errs = append(errs, field.Required(field.NewPath("rules").Index(i).Child("verbs"), ""))
			}
		}
	case *kedav1alpha1.ScaledObject:
		if x.Spec.ScaleTargetRef == nil || x.Spec.ScaleTargetRef.Name == "" {
			errs = append(errs, field.Required(field.NewPath("spec", "scaleTargetRef", "name"), ""))
		}
		if len(x.Spec.Triggers) == 0 {
			errs = append(errs, field.Required(field.NewPath("spec", "triggers"), ""))
		}
	}
	var out []string
	for _, e := range errs {
		out = append(out, e.Error())
	}
	return out
}

func checkSelector(sel *metav1.LabelSelector, podLabels map[string]string, p *field.Path) field.ErrorList {
	if sel == nil || (len(sel.MatchLabels) == 0 && len(sel.MatchExpressions) == 0) {
		return field.ErrorList{field.Required(p, "a workload needs a non-empty selector")}
	}
	s, err := metav1.LabelSelectorAsSelector(sel)
	if err != nil {
		return field.ErrorList{field.Invalid(p, sel, err.Error())}
	}
	if !s.Matches(labels.Set(podLabels)) {
		return field.ErrorList{field.Invalid(p, sel, "selector does not match the template's labels")}
	}
	return nil
}

func checkPod(t *corev1.PodTemplateSpec, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	errs = append(errs, metavalidation.ValidateLabels(t.Labels, p.Child("metadata", "labels"))...)
	spec := p.Child("spec")
	if len(t.Spec.Containers) == 0 {
		errs = append(errs, field.Required(spec.Child("containers"), ""))
	}
	volumes := map[string]bool{}
	for i, v := range t.Spec.Volumes {
		if volumes[v.Name] {
			errs = append(errs, field.Duplicate(spec.Child("volumes").Index(i).Child("name"), v.Name))
		}
		volumes[v.Name] = true
	}
	all := append(append([]corev1.Container{}, t.Spec.InitContainers...), t.Spec.Containers...)
	for i, c := range all {
		cp := spec.Child("containers").Index(i)
		for _, msg := range validation.IsDNS1123Label(c.Name) {
			errs = append(errs, field.Invalid(cp.Child("name"), c.Name, msg))
		}
		if c.Image == "" {
			errs = append(errs, field.Required(cp.Child("image"), ""))
		}
		ports := map[string]bool{}
		for j, port := range c.Ports {
			if port.Name == "" {
				continue
			}
			for _, msg := range validation.IsValidPortName(port.Name) {
				errs = append(errs, field.Invalid(cp.Child("ports").Index(j).Child("name"), port.Name, msg))
			}
			ports[port.Name] = true
		}
		for _, probe := range []*corev1.Probe{c.ReadinessProbe, c.LivenessProbe, c.StartupProbe} {
			if probe != nil && probe.HTTPGet != nil && probe.HTTPGet.Port.StrVal != "" && !ports[probe.HTTPGet.Port.StrVal] {
				errs = append(errs, field.NotFound(cp.Child("ports"), probe.HTTPGet.Port.StrVal))
			}
		}
		for j, m := range c.VolumeMounts {
			if !volumes[m.Name] {
				errs = append(errs, field.NotFound(cp.Child("volumeMounts").Index(j).Child("name"), m.Name))
			}
		}
		for j, e := range c.Env {
			for _, msg := range validation.IsEnvVarName(e.Name) {
				errs = append(errs, field.Invalid(cp.Child("env").Index(j).Child("name"), e.Name, msg))
			}
		}
		for res, limit := range c.Resources.Limits {
			if req, ok := c.Resources.Requests[res]; ok && req.Cmp(limit) > 0 {
				errs = append(errs, field.Invalid(cp.Child("resources", "requests").Key(string(res)), req.String(), "must be less than or equal to the limit "+limit.String()))
			}
		}
	}
	return errs
}

// checkReferences finds references to objects missing from the set (label typos, renamed objects).
func checkReferences(objects []object) []string {
	has := map[string]bool{}
	var pods []struct {
		o      object
		labels map[string]string
		spec   *corev1.PodSpec
	}
	for _, o := range objects {
		has[o.kind+"/"+o.name] = true
		switch x := o.obj.(type) {
		case *appsv1.Deployment:
			pods = append(pods, struct {
				o      object
				labels map[string]string
				spec   *corev1.PodSpec
			}{o, x.Spec.Template.Labels, &x.Spec.Template.Spec})
		case *batchv1.Job:
			pods = append(pods, struct {
				o      object
				labels map[string]string
				spec   *corev1.PodSpec
			}{o, x.Spec.Template.Labels, &x.Spec.Template.Spec})
		}
	}
	var problems []string
	missing := func(o object, what string) {
		problems = append(problems, fmt.Sprintf("%s: refers to %s, which is not in the manifests", o, what))
	}
	for _, p := range pods {
		if sa := p.spec.ServiceAccountName; sa != "" && sa != "default" && !has["ServiceAccount/"+sa] {
			missing(p.o, "ServiceAccount/"+sa)
		}
		for _, c := range p.spec.Containers {
			for _, ef := range c.EnvFrom {
				if ef.ConfigMapRef != nil && !has["ConfigMap/"+ef.ConfigMapRef.Name] && (ef.ConfigMapRef.Optional == nil || !*ef.ConfigMapRef.Optional) {
					missing(p.o, "ConfigMap/"+ef.ConfigMapRef.Name)
				}
			}
		}
	}
	for _, o := range objects {
		switch x := o.obj.(type) {
		case *corev1.Service:
			if len(x.Spec.Selector) == 0 {
				continue
			}
			matched := false
			for _, p := range pods {
				if labels.SelectorFromSet(x.Spec.Selector).Matches(labels.Set(p.labels)) {
					matched = true
					for _, port := range x.Spec.Ports {
						if name := port.TargetPort.StrVal; name != "" && !podHasPort(p.spec, name) {
							problems = append(problems, fmt.Sprintf("%s: targetPort %q is not a port of %s", o, name, p.o))
						}
					}
				}
			}
			if !matched {
				problems = append(problems, fmt.Sprintf("%s: selector %v matches no workload in the manifests", o, x.Spec.Selector))
			}
		case *rbacv1.RoleBinding:
			if !has[x.RoleRef.Kind+"/"+x.RoleRef.Name] && x.RoleRef.Kind == "Role" {
				missing(o, "Role/"+x.RoleRef.Name)
			}
			for _, s := range x.Subjects {
				if s.Kind == "ServiceAccount" && !has["ServiceAccount/"+s.Name] {
					missing(o, "ServiceAccount/"+s.Name)
				}
			}
		case *kedav1alpha1.ScaledObject:
			if x.Spec.ScaleTargetRef != nil && !has["Deployment/"+x.Spec.ScaleTargetRef.Name] {
				missing(o, "Deployment/"+x.Spec.ScaleTargetRef.Name)
			}
		case *monitoringv1.ServiceMonitor:
			sel, err := metav1.LabelSelectorAsSelector(&x.Spec.Selector)
			if err != nil {
				problems = append(problems, fmt.Sprintf("%s: %v", o, err))
				continue
			}
			n := 0
			for _, s := range objects {
				if svc, ok := s.obj.(*corev1.Service); ok && sel.Matches(labels.Set(svc.Labels)) {
					n++
					for _, ep := range x.Spec.Endpoints {
						if ep.Port != "" && !serviceHasPort(svc, ep.Port) {
							problems = append(problems, fmt.Sprintf("%s: endpoint port %q is not a port of %s", o, ep.Port, s))
						}
					}
				}
			}
			if n == 0 {
				problems = append(problems, fmt.Sprintf("%s: selects no Service in the manifests", o))
			}
		}
	}
	return problems
}

func podHasPort(spec *corev1.PodSpec, name string) bool {
	for _, c := range spec.Containers {
		for _, p := range c.Ports {
			if p.Name == name {
				return true
			}
		}
	}
	return false
}

func serviceHasPort(svc *corev1.Service, name string) bool {
	for _, p := range svc.Spec.Ports {
		if p.Name == name {
			return true
		}
	}
	return false
}
