/*
 * SMB (cifs, smb3): the server, the share and what the client and server
 * agreed on, from the mount's options (the kernel shows the negotiated
 * dialect, rsize and wsize there) and /proc/fs/cifs/DebugData (the
 * session's dialect and security type).  When the server is this machine
 * (its address is a loopback or one of this machine's) and smbd runs, the
 * share comes from the smb.conf smbd was started with (-s, --configfile,
 * else /etc/samba/smb.conf): its path, how it syncs, and the shared
 * directory's devices are the stack below the mount.
 */
#include <ctype.h>
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "core/slurp.h"
#include "env/env.h"
#include "env/stack_probe.h"
#include "env/stack_sysfs.h"

#define CIFS_DEFAULT_CONF "/etc/samba/smb.conf"

static bool cifs_claims(const char *type)
{
	return !strcmp(type, "cifs") || !strcmp(type, "smb3");
}

/* Server and share of a source "//host/share[/path]" (or with
 * backslashes). */
static void split_source(struct clyde_stack_fs *fs)
{
	const char *p = fs->source + strspn(fs->source, "/\\");
	size_t n = strcspn(p, "/\\");

	snprintf(fs->cifs_server, sizeof(fs->cifs_server), "%.*s", (int)n, p);
	p += n;
	p += strspn(p, "/\\");
	n = strcspn(p, "/\\");
	snprintf(fs->cifs_share, sizeof(fs->cifs_share), "%.*s", (int)n, p);
}

/* "0x311" as the dialect's name. */
static void dialect_name(const char *hex, char *out, size_t n)
{
	static const struct {
		unsigned long v;
		const char *name;
	} d[] = { { 0x311, "3.1.1" },
		  { 0x302, "3.0.2" },
		  { 0x300, "3.0" },
		  { 0x210, "2.1" },
		  { 0x202, "2.0" } };
	unsigned long v = strtoul(hex, NULL, 16);

	for (size_t i = 0; i < sizeof(d) / sizeof(d[0]); i++)
		if (d[i].v == v) {
			clyde_stack_copy(out, n, d[i].name);
			return;
		}
	clyde_stack_copy(out, n, hex);
}

/* The security type DebugData names, as the sec= option spells it. */
static void sec_name(const char *t, char *out, size_t n)
{
	static const char *const map[][2] = {
		{ "RawNTLMSSP", "ntlmssp" }, { "NTLMSSP", "ntlmssp" },
		{ "Kerberos", "krb5" },	     { "NTLMv2", "ntlmv2" },
		{ "NTLM", "ntlm" },	     { "Unspecified", "" },
	};

	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (!strcmp(t, map[i][0])) {
			clyde_stack_copy(out, n, map[i][1]);
			return;
		}
	clyde_stack_copy(out, n, t);
}

/* The dialect and security type of the session that holds
 * \\server\share in ROOT/proc/fs/cifs/DebugData; false when none does. */
static bool debugdata(const char *root, const struct clyde_stack_fs *fs,
		      char *dialect, size_t dn, char *sec, size_t sn)
{
	char path[PATH_MAX], line[1024], unc[600], d[16] = "", s[32] = "";
	bool found = false;
	FILE *f;

	snprintf(path, sizeof(path), "%s/proc/fs/cifs/DebugData", root);
	snprintf(unc, sizeof(unc), "\\\\%s\\%s ", fs->cifs_server,
		 fs->cifs_share);
	f = fopen(path, "re");
	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		const char *p;

		if (strstr(line, "ConnectionId:") ||
		    strstr(line, "Hostname:")) {
			d[0] = s[0] = '\0';
		} else if ((p = strstr(line, "Dialect 0x"))) {
			sscanf(p + 8, "%15s", d);
		} else if ((p = strstr(line, "Security type: "))) {
			sscanf(p + 15, "%31s", s);
		} else if ((p = strstr(line, unc)) && p > line &&
			   p[-1] == ' ') {
			found = true;
		}
	}
	fclose(f);
	if (found && d[0])
		dialect_name(d, dialect, dn);
	if (found && s[0])
		sec_name(s, sec, sn);
	return found;
}

/* The smb.conf of the smbd running under ROOT/proc (the lowest pid
 * whose comm is smbd), into out; false when no smbd runs. */
static bool smbd_conf(const char *root, char *out, size_t n)
{
	char path[PATH_MAX], buf[4096];
	long best = -1;
	DIR *d;
	struct dirent *e;

	snprintf(path, sizeof(path), "%s/proc", root);
	d = opendir(path);
	if (!d)
		return false;
	while ((e = readdir(d))) {
		char *end;
		long pid = strtol(e->d_name, &end, 10);
		ssize_t got;
		size_t len;

		if (*end || pid <= 0 || (best >= 0 && pid > best))
			continue;
		snprintf(path, sizeof(path), "%s/proc/%ld/comm", root, pid);
		if (clyde_slurp_into(path, buf, sizeof(buf)) < 0)
			continue;
		if (strcmp(buf, "smbd\n") && strcmp(buf, "smbd"))
			continue;
		best = pid;
		clyde_stack_copy(out, n, CIFS_DEFAULT_CONF);
		snprintf(path, sizeof(path), "%s/proc/%ld/cmdline", root, pid);
		got = clyde_slurp_into(path, buf, sizeof(buf));
		if (got < 0)
			continue;
		len = (size_t)got;
		for (size_t i = 0; i < len; i += strlen(buf + i) + 1) {
			const char *a = buf + i;

			if ((!strcmp(a, "-s") || !strcmp(a, "--configfile")) &&
			    i + strlen(a) + 1 < len)
				clyde_stack_copy(out, n, a + strlen(a) + 1);
			else if (!strncmp(a, "--configfile=", 13))
				clyde_stack_copy(out, n, a + 13);
			else if (!strncmp(a, "-s", 2) && a[2])
				clyde_stack_copy(out, n, a + 2);
		}
	}
	closedir(d);
	return best >= 0;
}

/* A parameter's name as Samba compares them: no spaces or underscores,
 * lower case. */
static void param_name(const char *s, size_t len, char *out, size_t n)
{
	size_t o = 0;

	for (size_t i = 0; i < len && o + 1 < n; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '_')
			out[o++] = (char)tolower((unsigned char)s[i]);
	out[o] = '\0';
}

static int param_bool(const char *v)
{
	if (!strcasecmp(v, "yes") || !strcasecmp(v, "true") ||
	    !strcmp(v, "1") || !strcasecmp(v, "on"))
		return 1;
	if (!strcasecmp(v, "no") || !strcasecmp(v, "false") ||
	    !strcmp(v, "0") || !strcasecmp(v, "off"))
		return 0;
	return -1;
}

/* The share's path and sync parameters in ROOT/conf ([global]'s, then
 * the share's own); false when the file has no such share. */
static bool read_share(const char *root, const char *conf, const char *share,
		       char *dir, size_t dn, int *strict_sync, int *sync_always)
{
	char path[PATH_MAX], line[2048], section[256] = "";
	bool found = false;
	FILE *f;

	snprintf(path, sizeof(path), "%s%s", root, conf);
	f = fopen(path, "re");
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		char *p = line + strspn(line, " \t"), *eq, *v, *end, key[64];
		bool global, ours;

		p[strcspn(p, "\r\n")] = '\0';
		if (*p == '[') {
			end = strchr(p, ']');
			snprintf(section, sizeof(section), "%.*s",
				 end ? (int)(end - p - 1) : 0, p + 1);
			found = found || !strcasecmp(section, share);
			continue;
		}
		if (*p == '#' || *p == ';' || !(eq = strchr(p, '=')))
			continue;
		global = !strcasecmp(section, "global");
		ours = !strcasecmp(section, share);
		if (!global && !ours)
			continue;
		param_name(p, (size_t)(eq - p), key, sizeof(key));
		v = eq + 1 + strspn(eq + 1, " \t");
		for (end = v + strlen(v);
		     end > v && isspace((unsigned char)end[-1]);)
			*--end = '\0';
		if (ours && !strcmp(key, "path"))
			clyde_stack_copy(dir, dn, v);
		else if (!strcmp(key, "strictsync") && param_bool(v) >= 0)
			*strict_sync = param_bool(v);
		else if (!strcmp(key, "syncalways") && param_bool(v) >= 0)
			*sync_always = param_bool(v);
	}
	fclose(f);
	return found;
}

/* The share as the local smbd serves it. */
static void read_local_share(const char *root, struct clyde_stack_fs *fs)
{
	/* Samba's defaults since 4.7: flushes are synced, writes not. */
	int strict_sync = 1, sync_always = 0;

	if (!smbd_conf(root, fs->cifs_conf, sizeof(fs->cifs_conf))) {
		clyde_stack_fs_note(fs,
				    "the server is this machine but no smbd "
				    "runs (ksmbd?): the share is not known");
		return;
	}
	if (!read_share(root, fs->cifs_conf, fs->cifs_share, fs->cifs_share_dir,
			sizeof(fs->cifs_share_dir), &strict_sync,
			&sync_always) ||
	    !fs->cifs_share_dir[0]) {
		clyde_stack_fs_note(fs,
				    "%.120s has no share %.120s with a path",
				    fs->cifs_conf, fs->cifs_share);
		fs->cifs_share_dir[0] = '\0';
		return;
	}
	clyde_stack_copy(fs->cifs_share_sync, sizeof(fs->cifs_share_sync),
			 !strict_sync ? "none" :
			 sync_always  ? "always" :
					"strict");
	clyde_stack_fstype_at(root, fs->cifs_share_dir, fs->cifs_share_fstype,
			      sizeof(fs->cifs_share_fstype));
}

static uint32_t opt_u32(const char *opts, const char *key, uint32_t dflt)
{
	char v[32];

	if (!clyde_stack_mount_opt(opts, key, v, sizeof(v)))
		return dflt;
	return (uint32_t)strtoul(v, NULL, 10);
}

void clyde_cifs_read_at(const char *root, struct clyde_stack_fs *fs)
{
	const char *opts = fs->mount_opts;
	char dialect[16] = "", sec[16] = "";

	split_source(fs);
	if (!debugdata(root, fs, dialect, sizeof(dialect), sec, sizeof(sec)))
		clyde_stack_fs_note(fs,
				    "\\\\%.100s\\%.100s is not in "
				    "/proc/fs/cifs/DebugData",
				    fs->cifs_server, fs->cifs_share);
	if (!clyde_stack_mount_opt(opts, "vers", fs->cifs_dialect,
				   sizeof(fs->cifs_dialect)) ||
	    !strcmp(fs->cifs_dialect, "default") ||
	    !strcmp(fs->cifs_dialect, "3"))
		clyde_stack_copy(fs->cifs_dialect, sizeof(fs->cifs_dialect),
				 dialect[0] ? dialect : fs->cifs_dialect);
	if (!clyde_stack_mount_opt(opts, "sec", fs->cifs_sec,
				   sizeof(fs->cifs_sec)))
		clyde_stack_copy(fs->cifs_sec, sizeof(fs->cifs_sec), sec);
	clyde_stack_mount_opt(opts, "addr", fs->cifs_addr,
			      sizeof(fs->cifs_addr));
	fs->cifs_rsize = opt_u32(opts, "rsize", 0);
	fs->cifs_wsize = opt_u32(opts, "wsize", 0);
	if (!clyde_stack_mount_opt(opts, "cache", fs->cifs_cache,
				   sizeof(fs->cifs_cache)))
		clyde_stack_copy(
			fs->cifs_cache, sizeof(fs->cifs_cache),
			clyde_stack_mount_flag(opts, "forcedirectio") ||
					clyde_stack_mount_flag(opts,
							       "directio") ?
				"none" :
				"strict");
	fs->cifs_actimeo = opt_u32(opts, "actimeo", 1);
	clyde_stack_copy(fs->cifs_recovery, sizeof(fs->cifs_recovery),
			 clyde_stack_mount_flag(opts, "hard") ? "hard" :
								"soft");
	fs->cifs_multichannel = clyde_stack_mount_flag(opts, "multichannel");
	fs->cifs_channels = opt_u32(opts, "max_channels", 1);
	fs->cifs_nosharesock = clyde_stack_mount_flag(opts, "nosharesock");
	fs->cifs_local = clyde_stack_addr_is_local(root, fs->cifs_addr);
	if (fs->cifs_local == 1)
		read_local_share(root, fs);
}

static void cifs_read(struct clyde_stack_fs *fs)
{
	clyde_cifs_read_at("", fs);
}

/* A local server: the shared directory's devices are the stack. */
static void cifs_devices(struct clyde_stack_walk *w)
{
	const struct clyde_stack_fs *fs = &w->s->fs;
	struct stat st;
	char name[64];

	if (w->root[0] || fs->cifs_local != 1 || !fs->cifs_share_dir[0] ||
	    stat(fs->cifs_share_dir, &st) != 0 || major(st.st_dev) == 0)
		return;
	clyde_stack_dev_name(st.st_dev, name, sizeof(name));
	clyde_stack_add_top(w, name);
}

static void cifs_text(FILE *f, const struct clyde_stack_fs *fs)
{
	char r[32], wz[32];

	fprintf(f, "  SMB %s from %s%s, share %s, sec %s\n",
		fs->cifs_dialect[0] ? fs->cifs_dialect : "?", fs->cifs_server,
		fs->cifs_local == 1 ? " (this machine)" : "", fs->cifs_share,
		fs->cifs_sec[0] ? fs->cifs_sec : "?");
	fprintf(f,
		"  rsize %s, wsize %s, cache %s, actimeo %u s, %s, "
		"multichannel %s (%u channels), nosharesock %s\n",
		clyde_stack_fmt_bytes(r, sizeof(r), fs->cifs_rsize),
		clyde_stack_fmt_bytes(wz, sizeof(wz), fs->cifs_wsize),
		fs->cifs_cache, fs->cifs_actimeo, fs->cifs_recovery,
		fs->cifs_multichannel ? "yes" : "no", fs->cifs_channels,
		fs->cifs_nosharesock ? "yes" : "no");
	if (fs->cifs_share_dir[0])
		fprintf(f, "  shared %s (%s) by smbd (%s): flushes %s\n",
			fs->cifs_share_dir,
			fs->cifs_share_fstype[0] ? fs->cifs_share_fstype : "?",
			fs->cifs_conf,
			!strcmp(fs->cifs_share_sync, "always") ?
				"synced, and every write (sync always)" :
			!strcmp(fs->cifs_share_sync, "none") ?
				"ignored (strict sync = no)" :
				"synced (strict sync)");
}

#define GET(fn, fmt, ...)                                                  \
	static void fn(const struct clyde_stack_fs *fs, char *b, size_t l) \
	{                                                                  \
		snprintf(b, l, fmt, __VA_ARGS__);                          \
	}
GET(get_dialect, "%s", fs->cifs_dialect)
GET(get_sec, "%s", fs->cifs_sec)
GET(get_rsize, "%u", fs->cifs_rsize)
GET(get_wsize, "%u", fs->cifs_wsize)
GET(get_cache, "%s", fs->cifs_cache)
GET(get_actimeo, "%u s", fs->cifs_actimeo)
GET(get_recovery, "%s", fs->cifs_recovery)
GET(get_channels, "%s, %u", fs->cifs_multichannel ? "multichannel" : "one",
    fs->cifs_channels)
GET(get_sharesock, "%s", fs->cifs_nosharesock ? "nosharesock" : "shared")
GET(get_server, "%s",
    fs->cifs_local == 1 ? "this machine" :
    fs->cifs_local == 0 ? "remote" :
			  "?")
GET(get_sync, "%s", fs->cifs_share_sync[0] ? fs->cifs_share_sync : "?")

#define F(key, type, member) \
	CLYDE_STACK_FIELD(key, type, struct clyde_stack_fs, member)

static const struct clyde_stack_field cifs_fields[] = {
	F("cifs_server", STR, cifs_server),
	F("cifs_share", STR, cifs_share),
	F("cifs_addr", STR, cifs_addr),
	F("cifs_dialect", STR, cifs_dialect),
	F("cifs_sec", STR, cifs_sec),
	F("cifs_rsize", U32, cifs_rsize),
	F("cifs_wsize", U32, cifs_wsize),
	F("cifs_cache", STR, cifs_cache),
	F("cifs_actimeo", U32, cifs_actimeo),
	F("cifs_recovery", STR, cifs_recovery),
	F("cifs_multichannel", INT, cifs_multichannel),
	F("cifs_channels", U32, cifs_channels),
	F("cifs_nosharesock", INT, cifs_nosharesock),
	F("cifs_local", INT, cifs_local),
	F("cifs_conf", STR, cifs_conf),
	F("cifs_share_dir", STR, cifs_share_dir),
	F("cifs_share_sync", STR, cifs_share_sync),
	F("cifs_share_fstype", STR, cifs_share_fstype),
};

static const struct clyde_stack_fs_fact cifs_facts[] = {
	{ "smb dialect", get_dialect },	  { "smb sec", get_sec },
	{ "smb rsize", get_rsize },	  { "smb wsize", get_wsize },
	{ "smb cache", get_cache },	  { "smb actimeo", get_actimeo },
	{ "smb recovery", get_recovery }, { "smb channels", get_channels },
	{ "smb socket", get_sharesock },  { "smb server", get_server },
	{ "smb share sync", get_sync },
};

const struct clyde_stack_fs_kind clyde_fs_cifs = {
	.name = "cifs",
	.claims = cifs_claims,
	.read = cifs_read,
	.devices = cifs_devices,
	.fields = cifs_fields,
	.nfields = CLYDE_STACK_NFIELDS(cifs_fields),
	.text = cifs_text,
	.facts = cifs_facts,
	.nfacts = CLYDE_STACK_NFIELDS(cifs_facts),
};
