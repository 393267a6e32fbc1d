import { execFile } from 'node:child_process'

/** Runs a command; resolves with its stdout, rejects naming the command and its stderr. */
export function run(cmd, args, options = {}) {
  return new Promise((resolve, reject) =>
    execFile(cmd, args, { maxBuffer: 64 * 1024 * 1024, ...options }, (error, stdout, stderr) =>
      error ? reject(new Error(`${cmd} ${args.join(' ')}: ${stderr || error.message}`)) : resolve(stdout),
    ),
  )
}
