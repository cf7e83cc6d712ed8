/*
 * A tool's arguments checked against its inputSchema before any work,
 * so a wrong type or a missing argument is the JSON-RPC error -32602
 * and never a half-understood call. The subset of JSON Schema the tools'
 * schemas use: type (one or a list), properties, required,
 * additionalProperties false, enum (strings), items, minItems, minimum,
 * maximum.
 */
#include <string.h>

#include "mcp/mcp.h"
#include "util/util.h"

static int is_type(const cJSON *v, const char *type)
{
	if (!strcmp(type, "string"))
		return cJSON_IsString(v);
	if (!strcmp(type, "boolean"))
		return cJSON_IsBool(v);
	if (!strcmp(type, "integer"))
		return cJSON_IsNumber(v) && v->valuedouble > -9007199254740992.0 &&
		       v->valuedouble < 9007199254740992.0 &&
		       v->valuedouble == (double)(long long)v->valuedouble;
	if (!strcmp(type, "number"))
		return cJSON_IsNumber(v);
	if (!strcmp(type, "array"))
		return cJSON_IsArray(v);
	if (!strcmp(type, "object"))
		return cJSON_IsObject(v);
	if (!strcmp(type, "null"))
		return cJSON_IsNull(v);
	return 0;
}

static const char *an(const char *type)
{
	return strchr("aeiou", type[0]) ? "an" : "a";
}

static int check_type(const cJSON *schema, const cJSON *v, const char *name,
		      aa_buf *why)
{
	const cJSON *type = cJSON_GetObjectItemCaseSensitive(schema, "type"), *t;

	if (cJSON_IsString(type)) {
		if (is_type(v, type->valuestring))
			return 0;
		aa_buf_printf(why, "argument '%s' must be %s %s", name,
			      an(type->valuestring), type->valuestring);
		return -1;
	}
	if (!cJSON_IsArray(type))
		return 0;
	cJSON_ArrayForEach(t, type)
		if (cJSON_IsString(t) && is_type(v, t->valuestring))
			return 0;
	aa_buf_printf(why, "argument '%s' has the wrong type", name);
	return -1;
}

static int check_enum(const cJSON *schema, const cJSON *v, const char *name,
		      aa_buf *why)
{
	const cJSON *list = cJSON_GetObjectItemCaseSensitive(schema, "enum"), *e;

	if (!cJSON_IsArray(list) || !cJSON_IsString(v))
		return 0;
	cJSON_ArrayForEach(e, list)
		if (cJSON_IsString(e) && !strcmp(e->valuestring, v->valuestring))
			return 0;
	aa_buf_printf(why, "argument '%s' is %s, not one of", name,
		      aa_qtext(v->valuestring, strlen(v->valuestring), 100));
	cJSON_ArrayForEach(e, list)
		aa_buf_printf(why, "%s %s", e == list->child ? "" : ",", e->valuestring);
	return -1;
}

static int check_bounds(const cJSON *schema, const cJSON *v, const char *name,
			aa_buf *why)
{
	const cJSON *min = cJSON_GetObjectItemCaseSensitive(schema, "minimum");
	const cJSON *max = cJSON_GetObjectItemCaseSensitive(schema, "maximum");
	const cJSON *min_items = cJSON_GetObjectItemCaseSensitive(schema, "minItems");

	if (cJSON_IsNumber(v) && cJSON_IsNumber(min) && v->valuedouble < min->valuedouble)
		return aa_buf_printf(why, "argument '%s' must be at least %g", name,
				     min->valuedouble), -1;
	if (cJSON_IsNumber(v) && cJSON_IsNumber(max) && v->valuedouble > max->valuedouble)
		return aa_buf_printf(why, "argument '%s' must be at most %g", name,
				     max->valuedouble), -1;
	if (cJSON_IsArray(v) && cJSON_IsNumber(min_items) &&
	    cJSON_GetArraySize(v) < min_items->valueint)
		return aa_buf_printf(why, "argument '%s' needs at least %d item%s", name,
				     min_items->valueint,
				     min_items->valueint == 1 ? "" : "s"), -1;
	return 0;
}

static int check_object(const cJSON *schema, const cJSON *v, const char *name,
			aa_buf *why)
{
	const cJSON *props = cJSON_GetObjectItemCaseSensitive(schema, "properties");
	const cJSON *req = cJSON_GetObjectItemCaseSensitive(schema, "required");
	const cJSON *extra = cJSON_GetObjectItemCaseSensitive(schema, "additionalProperties");
	const cJSON *r, *m;

	cJSON_ArrayForEach(r, req)
		if (cJSON_IsString(r) && !cJSON_GetObjectItemCaseSensitive(v, r->valuestring))
			return aa_buf_printf(why, "argument '%s' is required",
					     r->valuestring), -1;
	cJSON_ArrayForEach(m, v) {
		const cJSON *sub = cJSON_GetObjectItemCaseSensitive(props, m->string);

		if (!sub && cJSON_IsFalse(extra))
			return aa_buf_printf(why, "unknown argument %s",
					     aa_qtext(m->string, strlen(m->string), 100)), -1;
		if (sub && mcp_schema_check(sub, m, m->string, why) < 0)
			return -1;
	}
	(void)name;
	return 0;
}

int mcp_schema_check(const cJSON *schema, const cJSON *value,
		     const char *name, aa_buf *why)
{
	const cJSON *items = cJSON_GetObjectItemCaseSensitive(schema, "items"), *e;

	if (check_type(schema, value, name, why) < 0 ||
	    check_enum(schema, value, name, why) < 0 ||
	    check_bounds(schema, value, name, why) < 0)
		return -1;
	if (cJSON_IsObject(value))
		return check_object(schema, value, name, why);
	if (cJSON_IsArray(value) && items)
		cJSON_ArrayForEach(e, value)
			if (mcp_schema_check(items, e, name, why) < 0)
				return -1;
	return 0;
}
