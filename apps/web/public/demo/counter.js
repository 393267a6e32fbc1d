// A demo micro-frontend: counts up to its target in 50 steps of 50 ms (shell §9).
export function mount(element, props) {
  const target = Number(props.target ?? 100)
  const out = document.createElement('p')
  out.setAttribute('role', 'status')
  out.style.fontSize = '2rem'
  out.style.fontWeight = '700'
  element.replaceChildren(out)
  let step = 0
  out.textContent = '0'
  const timer = setInterval(() => {
    step += 1
    out.textContent = String(Math.round((target * step) / 50))
    if (step >= 50) clearInterval(timer)
  }, 50)
  return () => {
    clearInterval(timer)
    element.replaceChildren()
  }
}
