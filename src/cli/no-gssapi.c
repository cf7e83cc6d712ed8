/*
 * The static build: GSSAPI (Kerberos "Negotiate" HTTP authentication)
 * replaced by functions that always fail.
 *
 * libgit2's HTTP transport can answer a server's "WWW-Authenticate:
 * Negotiate" through GSSAPI (libgit2's auth_negotiate.c), so Debian's
 * libgit2 links libgssapi_krb5, which brings Kerberos, libk5crypto,
 * libcom_err, libkeyutils and libresolv into every run. Debian packages
 * no static archive of them, so the static build defines here the nine
 * names libgit2 uses, and nothing of Kerberos is loaded.
 *
 * Linked into the statically linked executable only (the shared build
 * loads the real library through libgit2.so), never into libaiapply.a.
 * It is safe because this command never opens a network connection (no
 * remote, fetch, push or clone API is called), and it fails closed: every
 * call that would establish a security context reports GSS_S_FAILURE, so
 * libgit2 reports "could not query mechanisms" and no authentication
 * happens. The release functions have nothing to release.
 */

#include <stddef.h>
#include <stdint.h>

typedef uint32_t aa_gss_status;		/* OM_uint32 */

struct aa_gss_buffer {			/* gss_buffer_desc */
	size_t length;
	void *value;
};

/* Major status codes of RFC 2744 (gssapi.h). */
#define AA_GSS_S_COMPLETE 0u
#define AA_GSS_S_FAILURE (13u << 16)

/* A gss_OID the negotiation names a service with: never looked into. */
void *GSS_C_NT_HOSTBASED_SERVICE = NULL;

aa_gss_status gss_indicate_mechs(aa_gss_status *minor, void **mechs);
aa_gss_status gss_import_name(aa_gss_status *minor, const void *name_buf,
			      const void *name_type, void **name);
aa_gss_status gss_init_sec_context(aa_gss_status *minor, void *cred,
				   void **context, void *target,
				   void *mech, aa_gss_status flags,
				   aa_gss_status time_req, void *bindings,
				   struct aa_gss_buffer *in, void **mech_out,
				   struct aa_gss_buffer *out,
				   aa_gss_status *flags_out,
				   aa_gss_status *time_out);
aa_gss_status gss_display_status(aa_gss_status *minor, aa_gss_status value,
				 int type, const void *mech,
				 aa_gss_status *context,
				 struct aa_gss_buffer *text);
aa_gss_status gss_delete_sec_context(aa_gss_status *minor, void **context,
				     struct aa_gss_buffer *token);
aa_gss_status gss_release_buffer(aa_gss_status *minor,
				 struct aa_gss_buffer *buf);
aa_gss_status gss_release_name(aa_gss_status *minor, void **name);
aa_gss_status gss_release_oid_set(aa_gss_status *minor, void **set);

static aa_gss_status fail(aa_gss_status *minor)
{
	if (minor)
		*minor = 0;
	return AA_GSS_S_FAILURE;
}

static aa_gss_status done(aa_gss_status *minor)
{
	if (minor)
		*minor = 0;
	return AA_GSS_S_COMPLETE;
}

aa_gss_status gss_indicate_mechs(aa_gss_status *minor, void **mechs)
{
	if (mechs)
		*mechs = NULL;
	return fail(minor);
}

aa_gss_status gss_import_name(aa_gss_status *minor, const void *name_buf,
			      const void *name_type, void **name)
{
	(void)name_buf;
	(void)name_type;
	if (name)
		*name = NULL;
	return fail(minor);
}

aa_gss_status gss_init_sec_context(aa_gss_status *minor, void *cred,
				   void **context, void *target,
				   void *mech, aa_gss_status flags,
				   aa_gss_status time_req, void *bindings,
				   struct aa_gss_buffer *in, void **mech_out,
				   struct aa_gss_buffer *out,
				   aa_gss_status *flags_out,
				   aa_gss_status *time_out)
{
	(void)cred;
	(void)context;
	(void)target;
	(void)mech;
	(void)flags;
	(void)time_req;
	(void)bindings;
	(void)in;
	(void)mech_out;
	(void)flags_out;
	(void)time_out;
	if (out) {
		out->length = 0;
		out->value = NULL;
	}
	return fail(minor);
}

aa_gss_status gss_display_status(aa_gss_status *minor, aa_gss_status value,
				 int type, const void *mech,
				 aa_gss_status *context,
				 struct aa_gss_buffer *text)
{
	(void)value;
	(void)type;
	(void)mech;
	if (context)
		*context = 0;
	if (text) {
		text->length = 0;
		text->value = NULL;
	}
	return fail(minor);
}

aa_gss_status gss_delete_sec_context(aa_gss_status *minor, void **context,
				     struct aa_gss_buffer *token)
{
	if (context)
		*context = NULL;
	if (token)
		token->length = 0;
	return done(minor);
}

aa_gss_status gss_release_buffer(aa_gss_status *minor,
				 struct aa_gss_buffer *buf)
{
	if (buf) {
		buf->length = 0;
		buf->value = NULL;
	}
	return done(minor);
}

aa_gss_status gss_release_name(aa_gss_status *minor, void **name)
{
	if (name)
		*name = NULL;
	return done(minor);
}

aa_gss_status gss_release_oid_set(aa_gss_status *minor, void **set)
{
	if (set)
		*set = NULL;
	return done(minor);
}

