; Sokoban as the ASP Competition (after IPC 2008) states it, every action of
; cost 1: the player walks to an adjacent clear cell, or pushes an adjacent
; stone one cell further in the same direction onto a clear cell. Pushing
; onto a goal cell marks the stone as at a goal, pushing it anywhere else
; unmarks it. Instances come from `corvus asp translate`.
(define (domain sokoban)
  (:requirements :strips :typing)
  (:types thing location direction - object
          player stone - thing)
  (:predicates (at ?t - thing ?l - location)
               (clear ?l - location)
               (at-goal ?s - stone)
               (goal-cell ?l - location)
               (nongoal-cell ?l - location)
               (adjacent ?from ?to - location ?dir - direction))
  (:action move
    :parameters (?p - player ?from ?to - location ?dir - direction)
    :precondition (and (at ?p ?from) (clear ?to) (adjacent ?from ?to ?dir))
    :effect (and (not (at ?p ?from)) (at ?p ?to)
                 (not (clear ?to)) (clear ?from)))
  (:action push-to-nongoal
    :parameters (?p - player ?s - stone ?ppos ?from ?to - location ?dir - direction)
    :precondition (and (at ?p ?ppos) (at ?s ?from) (clear ?to)
                       (adjacent ?ppos ?from ?dir) (adjacent ?from ?to ?dir)
                       (nongoal-cell ?to))
    :effect (and (not (at ?p ?ppos)) (at ?p ?from)
                 (not (at ?s ?from)) (at ?s ?to)
                 (not (clear ?to)) (clear ?ppos)
                 (not (at-goal ?s))))
  (:action push-to-goal
    :parameters (?p - player ?s - stone ?ppos ?from ?to - location ?dir - direction)
    :precondition (and (at ?p ?ppos) (at ?s ?from) (clear ?to)
                       (adjacent ?ppos ?from ?dir) (adjacent ?from ?to ?dir)
                       (goal-cell ?to))
    :effect (and (not (at ?p ?ppos)) (at ?p ?from)
                 (not (at ?s ?from)) (at ?s ?to)
                 (not (clear ?to)) (clear ?ppos)
                 (at-goal ?s))))
