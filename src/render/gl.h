// The one place that includes the WebGL2 (OpenGL ES 3.0) API; only src/render and src/app use it.
#pragma once

#include <GLES3/gl3.h>
