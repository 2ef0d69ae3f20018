# Sources of the runtime's bootstrap part.
