import autocannon from 'autocannon'

function cannon(url, headers, duration) {
  return new Promise((resolve, reject) =>
    autocannon({ url, connections: 20, duration, headers }, (err, r) => (err ? reject(err) : resolve(r))),
  )
}

/** GET throughput of one URL with 20 connections: 2 s to warm up, then 10 s measured. */
export async function throughput(url, headers) {
  await cannon(url, headers, 2)
  const r = await cannon(url, headers, 10)
  return { rps: r.requests.average, p50: r.latency.p50, errors: r.errors + r.non2xx }
}
