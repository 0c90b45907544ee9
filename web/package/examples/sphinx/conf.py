# A Sphinx site with live md5stage figures (web/package/README.md, "Sphinx"). The element's
# package goes in _static/md5stage/ (copied from node_modules/md5stage-element/, or unpacked from
# its tarball): Sphinx copies _static to the built site, and the script finds its wasm and demo
# assets next to itself.
project = 'Walkers that turn'
html_theme = 'classic'  # built into Sphinx
html_static_path = ['_static']
html_js_files = ['md5stage/md5stage-element.js']
html_css_files = ['figures.css']
