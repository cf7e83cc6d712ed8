// A scripted MCP client on the official TypeScript SDK (Client +
// StdioClientTransport), for t/t36xx and bench/mcp.sh.
//
//   node client.mjs [options] STEPS.json -- COMMAND [ARG...]
//
// Starts COMMAND (the server) with the SDK's stdio transport, lets the SDK
// negotiate the protocol, runs the steps of STEPS.json (a JSON array) in
// order over that one connection and prints one JSON object a line per
// step, for the test to read with jq:
//
//   (always first)  {"op":"connect","requested":V,"protocolVersion":V,
//                    "serverInfo":{..},"capabilities":{..},"instructions":S}
//                   then tools/list, as clients do (the SDK validates a
//                   result only against a schema it has listed)
//   {"op":"list"}   {"op":"list","tools":[..],"ajv":{"<tool>":"ok"|msg}}
//   {"op":"call","tool":T,"args":{..}}
//                   {"op":"call","tool":T,"isError":B,"structuredContent":O,
//                    "text":S,"ajv":"ok"|"unavailable"|"no schema"|msg}
//                   or {"op":"call","tool":T,"error":{"code":N,"message":S}}
//                   when the SDK throws (a JSON-RPC error, or a result the
//                   SDK finds does not match the tool's outputSchema)
//   {"op":"call",..,"cancel":true}  the client gives the call up at once
//                   (notifications/cancelled): {"op":"call","tool":T,
//                   "cancelled":true} (false: the answer came first)
//   {"op":"roots","roots":[URI or path..]}
//                   the client's roots change: sends
//                   notifications/roots/list_changed and waits until the
//                   server has asked roots/list again (or 5 s)
//   {"op":"sh","cmd":S}  runs S with sh in the server's directory (a
//                   user's own git command beside the server)
//   {"op":"ping"}   {"op":"ping","ok":true}
//   {"op":"repeat","n":N,"calls":[{"tool":T,"args":{..}},..]}
//                   the calls in turn, N rounds, "{i}" in their string
//                   arguments replaced by the round 1..N; prints
//                   {"op":"repeat","n":N,"calls":C,"errors":K,"ms":M}
//   {"op":"loglevel","level":L}  logging/setLevel: the server's log
//                   messages from then on are collected
//   (always last)   {"op":"end","transportErrors":[..],"rootsAsked":N,
//                    "logs":[{"level":L,"logger":S,"data":..},..]}
//
// In "args", a key ending in "@" names files read into the argument
// without the "@": {"answer@": "a.md"} sends a.md's text as "answer",
// {"answers@": ["a.md", "b.md"]} sends a list.
//
// Options: --cwd DIR (the server's directory; default the current one),
// --roots URI,... (declare the roots capability with these roots; a
// path is sent as its file: URI; "--roots ," declares none at all),
// --client-name NAME (clientInfo.name; default "t36xx-sdk-client").
import { readFileSync } from 'node:fs';
import { execSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
	LATEST_PROTOCOL_VERSION,
	ListRootsRequestSchema,
	LoggingMessageNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';

function usage(msg) {
	process.stderr.write(`client.mjs: ${msg}\n` +
		'usage: node client.mjs [--cwd DIR] [--roots URI,...] ' +
		'[--client-name NAME] STEPS.json -- COMMAND [ARG...]\n');
	process.exit(2);
}

function parseArgs(argv) {
	const o = { cwd: process.cwd(), roots: null, name: 't36xx-sdk-client' };
	let i = 0;
	for (; i < argv.length && argv[i] !== '--'; i++) {
		const a = argv[i];
		if (a === '--cwd') o.cwd = argv[++i];
		else if (a === '--roots') o.roots = rootURIs(argv[++i].split(','));
		else if (a === '--client-name') o.name = argv[++i];
		else if (a.startsWith('--')) usage(`unknown option ${a}`);
		else if (o.steps === undefined) o.steps = a;
		else usage(`unexpected ${a}`);
	}
	o.command = argv.slice(i + 1);
	if (o.steps === undefined || o.command.length === 0)
		usage('a steps file and a command are needed');
	return o;
}

// A root given as a path becomes its file: URI (percent-encoded, as a
// client sends it); a URI is kept as it is.
function rootURIs(list) {
	return list.filter(Boolean).map((r) =>
		r.includes('://') ? r : pathToFileURL(r).href);
}

function out(obj) {
	process.stdout.write(JSON.stringify(obj) + '\n');
}

// {"answer@": "a.md"} -> {"answer": "<a.md's text>"}; "{i}" -> i.
function resolveArgs(args, cwd, i) {
	const r = {};
	const read = (p) => readFileSync(p.startsWith('/') ? p : `${cwd}/${p}`, 'utf8');
	const subst = (v) => (typeof v === 'string' && i !== undefined) ?
		v.replaceAll('{i}', String(i)) : v;
	for (const [k, v] of Object.entries(args ?? {})) {
		if (k.endsWith('@'))
			r[k.slice(0, -1)] = Array.isArray(v) ? v.map(read) : read(v);
		else
			r[k] = subst(v);
	}
	return r;
}

// The SDK's bundled ajv (a dependency of the SDK), when it can be loaded.
async function loadAjv() {
	try {
		const Ajv = (await import('ajv')).default;
		return new Ajv({ strict: false, allErrors: true });
	} catch {
		return null;
	}
}

function ajvCheck(ajv, schema, value) {
	if (!ajv) return 'unavailable';
	if (!schema) return 'no schema';
	try {
		const validate = ajv.compile(schema);
		if (validate(value)) return 'ok';
		return ajv.errorsText(validate.errors);
	} catch (e) {
		return `schema does not compile: ${e.message}`;
	}
}

function textOf(result) {
	return (result.content ?? [])
		.filter((c) => c.type === 'text').map((c) => c.text).join('\n');
}

async function main() {
	const o = parseArgs(process.argv.slice(2));
	const steps = JSON.parse(readFileSync(o.steps, 'utf8'));
	const ajv = await loadAjv();
	const schemas = {};
	const transportErrors = [];
	let roots = o.roots;
	let rootsAsked = 0;
	let rootsWaiter = null;

	const client = new Client({ name: o.name, version: '1.0.0' },
		{ capabilities: roots ? { roots: { listChanged: true } } : {} });
	client.onerror = (e) => transportErrors.push(String(e?.message ?? e));
	const logs = [];
	client.setNotificationHandler(LoggingMessageNotificationSchema,
		(n) => { logs.push(n.params); });
	if (roots) {
		client.setRequestHandler(ListRootsRequestSchema, async () => {
			rootsAsked++;
			const answer = { roots: roots.map((uri) => ({ uri })) };
			if (rootsWaiter) setImmediate(rootsWaiter);
			rootsWaiter = null;
			return answer;
		});
	}
	// The server's own next request after a roots change: wait for it
	// (the server reads the answer before the next request).
	const rootsAskedAgain = () => new Promise((resolve) => {
		const t = setTimeout(resolve, 5000);
		rootsWaiter = () => { clearTimeout(t); resolve(); };
	});

	const transport = new StdioClientTransport({
		command: o.command[0],
		args: o.command.slice(1),
		cwd: o.cwd,
		env: { ...process.env },
		stderr: 'inherit',
	});
	// The SDK tells an HTTP transport the negotiated version this way;
	// the stdio transport has no use for it, the test has.
	let negotiated = null;
	transport.setProtocolVersion = (v) => { negotiated = v; };

	const firstRoots = roots ? rootsAskedAgain() : null;
	await client.connect(transport);
	out({
		op: 'connect',
		requested: LATEST_PROTOCOL_VERSION,
		protocolVersion: negotiated,
		serverInfo: client.getServerVersion(),
		capabilities: client.getServerCapabilities(),
		instructions: client.getInstructions() ?? null,
	});
	if (firstRoots) await firstRoots;
	// As every client does before calling a tool: the SDK keeps each
	// tool's outputSchema and validates every call's result against it.
	for (const t of (await client.listTools()).tools)
		schemas[t.name] = t.outputSchema;

	for (const step of steps) {
		switch (step.op) {
		case 'list': {
			const { tools } = await client.listTools();
			const compiled = {};
			for (const t of tools) {
				schemas[t.name] = t.outputSchema;
				compiled[t.name] = ajv ? ajvCompiles(ajv, t) : 'unavailable';
			}
			out({ op: 'list', tools, ajv: compiled });
			break;
		}
		case 'call':
			await oneCall(client, step, o.cwd, ajv, schemas);
			break;
		case 'repeat':
			await repeatCalls(client, step, o.cwd);
			break;
		case 'roots': {
			roots = rootURIs(step.roots);
			const asked = rootsAskedAgain();
			await client.sendRootsListChanged();
			await asked;
			out({ op: 'roots', roots, rootsAsked });
			break;
		}
		case 'sh':
			try {
				execSync(step.cmd, { cwd: o.cwd, stdio: ['ignore', 'ignore', 'inherit'] });
				out({ op: 'sh', ok: true });
			} catch (e) {
				out({ op: 'sh', ok: false, status: e.status });
			}
			break;
		case 'loglevel':
			await client.setLoggingLevel(step.level);
			out({ op: 'loglevel', level: step.level });
			break;
		case 'ping':
			await client.ping();
			out({ op: 'ping', ok: true });
			break;
		default:
			usage(`unknown step ${JSON.stringify(step)}`);
		}
	}
	out({ op: 'end', transportErrors, rootsAsked, logs });
	await client.close();
}

// Both schemas of a tool compile (ajv), as "ok" or the reason.
function ajvCompiles(ajv, tool) {
	try {
		ajv.compile(tool.inputSchema);
		if (tool.outputSchema) ajv.compile(tool.outputSchema);
		return 'ok';
	} catch (e) {
		return e.message;
	}
}

async function oneCall(client, step, cwd, ajv, schemas) {
	const args = resolveArgs(step.args, cwd);
	if (step.cancel) return cancelledCall(client, step, args);
	try {
		const r = await client.callTool({ name: step.tool, arguments: args });
		out({
			op: 'call', tool: step.tool, isError: r.isError === true,
			structuredContent: r.structuredContent ?? null,
			text: textOf(r),
			ajv: r.structuredContent === undefined ? 'no structuredContent' :
				ajvCheck(ajv, schemas[step.tool], r.structuredContent),
		});
	} catch (e) {
		out({ op: 'call', tool: step.tool,
			error: { code: e.code ?? null, message: String(e.message ?? e) } });
	}
}

// A call the client gives up at once: the SDK sends
// notifications/cancelled for it and drops its answer if one comes.
async function cancelledCall(client, step, args) {
	const ac = new AbortController();
	const p = client.callTool({ name: step.tool, arguments: args },
		undefined, { signal: ac.signal });
	setImmediate(() => ac.abort('t36xx: cancelled'));
	try {
		await p;
		out({ op: 'call', tool: step.tool, cancelled: false });
	} catch (e) {
		out({ op: 'call', tool: step.tool, cancelled: true,
			message: String(e?.message ?? e) });
	}
	// Time for a late answer to arrive (and be dropped) before the next
	// step, so that the next answer is the next request's.
	await new Promise((resolve) => setTimeout(resolve, 200));
}

async function repeatCalls(client, step, cwd) {
	let errors = 0, calls = 0;
	const t0 = process.hrtime.bigint();
	for (let i = 1; i <= step.n; i++) {
		for (const c of step.calls) {
			calls++;
			try {
				const r = await client.callTool({ name: c.tool,
					arguments: resolveArgs(c.args, cwd, i) });
				if (r.isError) errors++;
			} catch {
				errors++;
			}
		}
	}
	const ms = Number(process.hrtime.bigint() - t0) / 1e6;
	out({ op: 'repeat', n: step.n, calls, errors, ms });
}

main().catch((e) => {
	process.stderr.write(`client.mjs: ${e?.stack ?? e}\n`);
	process.exit(1);
});
