// A demo micro-frontend: an ES module served under /ui/demo/, mounted by the console.
export function mount(element, props) {
  const heading = document.createElement('p')
  heading.style.fontSize = '1.25rem'
  heading.textContent = `Hello, ${props.name ?? 'world'}!`
  const note = document.createElement('p')
  note.textContent = 'This greeting is a separate ES module, loaded from /ui/demo/greeting.js.'
  element.replaceChildren(heading, note)
  return () => element.replaceChildren()
}
