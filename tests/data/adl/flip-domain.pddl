; A switch whose effect conditions the action itself changes: `flip` reads
; `(on ?s)` in the state before it, so it always toggles.
(define (domain flip)
  (:requirements :typing :conditional-effects :negative-preconditions)
  (:types switch)
  (:predicates (on ?s - switch))
  (:action flip
    :parameters (?s - switch)
    :precondition (and)
    :effect (and (when (on ?s) (not (on ?s)))
                 (when (not (on ?s)) (on ?s)))))
