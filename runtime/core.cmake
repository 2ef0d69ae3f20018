# Sources of the runtime's core part.
