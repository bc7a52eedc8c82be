// What the spec:update tests share: a process run to its end with its output kept, and a loopback
// server that answers every request with one document, as the provider's spec address would.
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `command` in `cwd` with no provider spec address in its environment. */
export function runProcess(command: string, args: string[], cwd: string): Promise<RunResult> {
  return new Promise((done, fail) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, VAPI_SPEC_URL: '' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', fail);
    child.once('close', (code) => done({ code, stdout, stderr }));
  });
}

/** Serves `body` as JSON on a free loopback port; `url` names it at `path`. */
export function serveJson(body: string, path: string): Promise<{ url: string; server: Server }> {
  return new Promise((done) => {
    const server = createServer((_request, response) => {
      response.writeHead(200, { 'Content-Type': 'application/json' });
      response.end(body);
    });
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      done({ url: `http://127.0.0.1:${port}${path}`, server });
    });
  });
}
