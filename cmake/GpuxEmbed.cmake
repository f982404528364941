# gpux_embed(<out.c> <symbol> <input> [INLINE <header>...] [DEPENDS ...])
# Adds a build rule that turns <input> into a C array (see embed.cmake).
function(gpux_embed out sym input)
  cmake_parse_arguments(E "" "" "INLINE;DEPENDS" ${ARGN})
  set(extra "")
  set(deps "${input}" "${GPUX_EMBED_SCRIPT}" ${E_DEPENDS})
  if(E_INLINE)
    string(REPLACE ";" "|" inl "${E_INLINE}")
    set(extra "-DINLINE=${inl}")
    list(APPEND deps ${E_INLINE})
  endif()
  add_custom_command(OUTPUT "${out}"
    COMMAND ${CMAKE_COMMAND} -DIN=${input} -DOUT=${out} -DSYM=${sym} ${extra}
            -P "${GPUX_EMBED_SCRIPT}"
    DEPENDS ${deps}
    COMMENT "Embedding ${sym}"
    VERBATIM)
endfunction()
set(GPUX_EMBED_SCRIPT "${CMAKE_CURRENT_LIST_DIR}/embed.cmake" CACHE INTERNAL "")
