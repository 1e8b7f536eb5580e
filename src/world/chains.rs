//! Chains of level geometry by id: a chain is one static or kinematic body whose shapes are
//! its segments ([`ChainDef`]), named by a [`ChainId`] and removed as a whole.

use super::*;

impl World {
    /// Adds a chain as level geometry: one body of `def.kind` at `def.transform` whose shapes
    /// are the chain's segments, each with its own proxy and `def`'s material, filter and
    /// user data. The kind must be static or kinematic (a chain has no mass): a dynamic kind
    /// is [`SolverError::Unsupported`]; every segment is checked as [`World::add_shape`]
    /// checks a shape, and the transform and velocities as [`World::add_body`] checks them.
    /// On error nothing is added ([`SolverError::OutOfMemory`] included: room for every
    /// segment is made first).
    pub fn add_chain(&mut self, def: &ChainDef) -> Result<ChainId, SolverError> {
        if def.kind == BodyKind::Dynamic {
            return Err(SolverError::Unsupported);
        }
        for seg in def.chain.segments() {
            limits::check_shape(&Shape::ChainSegment(seg))?;
        }
        let mut segments = def.chain.segments();
        self.reserve_shapes(segments.len(), true, def.kind != BodyKind::Static, false)?;
        let first = segments.next().ok_or(SolverError::InvalidInput)?;
        let body = BodyDef {
            material: def.material,
            filter: def.filter,
            user_data: def.user_data,
            linear_velocity: def.linear_velocity,
            angular_velocity: def.angular_velocity,
            ..BodyDef::new(def.kind, def.transform, Shape::ChainSegment(first))
        };
        let id = self.add_body(&body)?;
        for seg in segments {
            if let Err(e) = self.add_shape(id, &Shape::ChainSegment(seg)) {
                let _ = self.remove_body(id);
                return Err(e);
            }
        }
        Ok(ChainId {
            index: id.index,
            generation: id.generation,
        })
    }

    /// The slot of a live chain's body, or [`SolverError::InvalidChainId`]: a body that
    /// [`World::add_chain`] made (its first shape is a chain segment, which only a chain's
    /// body has as a first shape among moving bodies; a static body added with a segment
    /// shape counts as a chain of one segment).
    fn chain_slot(&self, id: ChainId) -> Result<usize, SolverError> {
        let body = BodyId {
            index: id.index,
            generation: id.generation,
        };
        match self.slot(body) {
            Ok(i) if matches!(self.slots[i].shape, Shape::ChainSegment(_)) => Ok(i),
            _ => Err(SolverError::InvalidChainId),
        }
    }

    /// The body a chain makes (its pose, velocity, filter and contacts are the body's).
    pub fn chain_body(&self, id: ChainId) -> Result<BodyId, SolverError> {
        let i = self.chain_slot(id)?;
        Ok(self.id_of(i as u32))
    }

    /// The ids of a chain's segment shapes (see [`World::shape_ids`]).
    pub fn chain_shapes(&self, id: ChainId) -> Result<impl Iterator<Item = ShapeId> + '_, SolverError> {
        let body = self.chain_body(id)?;
        self.shape_ids(body)
    }

    /// Removes a chain: its body and every segment, their proxies and contacts (end events
    /// come with the next step's, as for [`World::remove_body`]). Errors:
    /// [`SolverError::InvalidChainId`]; [`SolverError::OutOfMemory`] as
    /// [`World::remove_body`].
    pub fn remove_chain(&mut self, id: ChainId) -> Result<(), SolverError> {
        let body = self.chain_body(id)?;
        self.remove_body(body)
    }
}
